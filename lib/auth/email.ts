// Sign-in links by e-mail: sent through SMTP_URL, or, without it, written to
// the server log so that whoever runs the server can still sign in.
import { config } from '../config.ts';
import { log } from '../log.ts';
import { sendMail } from '../mail/mailer.ts';

export async function sendSignInLink(email: string, url: string, expires: Date): Promise<void> {
  const minutes = Math.round((expires.getTime() - Date.now()) / 60_000);
  const host = new URL(config.publicUrl).host;
  const sent = await sendMail({
    to: email,
    subject: `Sign in to Atrium (${host})`,
    text: `Open this link to sign in to Atrium at ${host}:\n\n${url}\n\nIt works once, for ${minutes} minutes. If you did not ask to sign in, ignore this e-mail.\n`,
    html: `<p>Open this link to sign in to Atrium at ${host}:</p><p><a href="${url.replaceAll('&', '&amp;')}">Sign in</a></p><p>It works once, for ${minutes} minutes. If you did not ask to sign in, ignore this e-mail.</p>`,
  });
  if (!sent) log.info('sign-in link (SMTP_URL is not set, so it is logged instead of e-mailed)', { email, url });
}
