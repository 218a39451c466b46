// Outgoing e-mail through SMTP_URL. Without it nothing is sent and callers
// learn so from the result, so that they can offer the link another way.
import { createTransport, type Transporter } from 'nodemailer';
import { config } from '../config.ts';

export type Mail = { to: string; subject: string; text: string; html?: string };

let transport: { url: string; transporter: Transporter } | undefined;

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

/** Sends one message; false when no SMTP server is configured. Throws when the server refuses it. */
export async function sendMail(mail: Mail): Promise<boolean> {
  const url = config.smtpUrl;
  if (!url) return false;
  if (transport?.url !== url) transport = { url, transporter: createTransport(smtpOptions(url)) };
  await transport.transporter.sendMail({ from: config.smtpFrom, ...mail });
  return true;
}
