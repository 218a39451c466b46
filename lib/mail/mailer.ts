// Outgoing e-mail through SMTP_URL. Without it nothing is sent and callers
// learn so from the result, so that they can offer the link another way.
import { createTransport, type Transporter } from 'nodemailer';
import { config } from '../config.ts';

export type Mail = { to: string; subject: string; text: string; html?: string };

let transport: { url: string; transporter: Transporter } | undefined;

/** Sends one message; false when no SMTP server is configured. Throws when the server refuses it. */
export async function sendMail(mail: Mail): Promise<boolean> {
  const url = config.smtpUrl;
  if (!url) return false;
  if (transport?.url !== url) transport = { url, transporter: createTransport(url) };
  await transport.transporter.sendMail({ from: config.smtpFrom, ...mail });
  return true;
}
