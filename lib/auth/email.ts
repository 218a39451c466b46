// Sign-in links by e-mail: sent through SMTP_URL, or, without it, written to
// the server log so that whoever runs the server can still sign in.
import { createTransport, type Transporter } from 'nodemailer';
import { config } from '../config.ts';
import { log } from '../log.ts';

let transport: Transporter | undefined;

/** smtp(s)://user:pass@host:port as nodemailer options (its own URL parsing is deprecated in Node). */
function smtpOptions(smtpUrl: string) {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
  };
}

export async function sendSignInLink(email: string, url: string, expires: Date): Promise<void> {
  const minutes = Math.round((expires.getTime() - Date.now()) / 60_000);
  if (!config.smtpUrl) {
    log.info('sign-in link (SMTP_URL is not set, so it is logged instead of e-mailed)', { email, url });
    return;
  }
  transport ??= createTransport(smtpOptions(config.smtpUrl));
  const host = new URL(config.publicUrl).host;
  await transport.sendMail({
    from: config.smtpFrom,
    to: email,
    subject: `Sign in to Atrium (${host})`,
    text: `Open this link to sign in to Atrium at ${host}:\n\n${url}\n\nIt works once, for ${minutes} minutes. If you did not ask to sign in, ignore this e-mail.\n`,
    html: `<p>Open this link to sign in to Atrium at ${host}:</p><p><a href="${url.replaceAll('&', '&amp;')}">Sign in</a></p><p>It works once, for ${minutes} minutes. If you did not ask to sign in, ignore this e-mail.</p>`,
  });
}
