/**
 * Sending one message to the emulator's private email relay (SMTP on loopback, no TLS, no AUTH), for the
 * Hide My Email tests Python writes with `smtplib`: Node's standard library has no SMTP client.
 */

import { createConnection } from "node:net";
import { EmulatorError } from "./errors.js";

export interface RelayMail {
    /** The envelope sender and the header `From` (an email source the team registered). */
    from: string;
    /** The relay address (the Hide My Email address the backend was given). */
    to: string;
    subject: string;
    text: string;
}

/** The relay's final answer to a message it accepted (`250 …`); a refusal is an `EmulatorError` with the SMTP reply. */
export function sendRelayMail(host: string, port: number, mail: RelayMail, timeoutMs = 30_000): Promise<string> {
    for (const address of [mail.from, mail.to]) {
        if (/[\r\n<>]/.test(address)) throw new TypeError(`not an address: ${JSON.stringify(address)}`);
    }
    const body = mail.text.replace(/\r?\n/g, "\r\n").replace(/^\./gm, "..");
    const message = `From: ${mail.from}\r\nTo: ${mail.to}\r\nSubject: ${mail.subject.replace(/[\r\n]/g, " ")}\r\n\r\n${body}\r\n.`;
    const script = ["EHLO localhost", `MAIL FROM:<${mail.from}>`, `RCPT TO:<${mail.to}>`, "DATA", message, "QUIT"];
    // The reply expected before each command is sent: the greeting, then one per command.
    const expected = ["220", "250", "250", "250", "354", "250", "221"];
    return new Promise((resolve, reject) => {
        const socket = createConnection({ host, port });
        let buffer = "";
        let step = 0;
        let accepted = "";
        const fail = (reply: string): void => {
            socket.destroy();
            reject(new EmulatorError("smtp_refused", reply.trim(), 0, "smtp"));
        };
        socket.setEncoding("utf8");
        socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs} ms`));
        socket.on("error", (error) => fail(error.message));
        socket.on("data", (chunk) => {
            buffer += chunk;
            // A reply is complete at a line "NNN text" (a space after the code; "NNN-" continues it).
            const lines = buffer.split("\r\n");
            buffer = lines.pop() ?? "";
            for (const line of lines) {
                if (!/^\d{3} /.test(line) && !/^\d{3}$/.test(line)) continue;
                if (!line.startsWith(expected[step] ?? "")) return fail(line);
                if (step === 5) accepted = line;
                const next = script[step];
                step += 1;
                if (next === undefined) {
                    socket.end();
                    return resolve(accepted);
                }
                socket.write(`${next}\r\n`);
            }
        });
    });
}
