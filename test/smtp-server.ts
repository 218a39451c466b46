// A minimal SMTP server on 127.0.0.1 for tests: it accepts every message and
// keeps it, so a test can read the e-mails the app sent.
import { createServer, type Server } from 'node:net';

export type Mail = { from: string; to: string[]; data: string };

/** Listens on `port` (0: any free port). */
export async function startSmtpServer(port = 0): Promise<{ url: string; mails: Mail[]; close: () => Promise<void> }> {
  const mails: Mail[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let mail: Mail = { from: '', to: [], data: '' };
    let inData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 localhost test SMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      while (true) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          mails.push(mail);
          mail = { from: '', to: [], data: '' };
          inData = false;
          reply('250 OK queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') reply('250 localhost');
        else if (verb === 'MAIL') (mail.from = line.slice(10).trim()), reply('250 OK');
        else if (verb === 'RCPT') mail.to.push(line.slice(8).trim()), reply('250 OK');
        else if (verb === 'DATA') (inData = true), reply('354 End data with <CR><LF>.<CR><LF>');
        else if (verb === 'QUIT') reply('221 Bye'), socket.end();
        else reply('250 OK');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${bound}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The decoded text of a message: nodemailer sends short lines as they are (7bit) and long ones quoted-printable. */
export function mailText(mail: Mail): string {
  if (!/^content-transfer-encoding: quoted-printable/im.test(mail.data)) return mail.data;
  return mail.data.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
