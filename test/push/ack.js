// The CometD acknowledgement extension (cometd/AckExtension.js) against
// Confer's push service: the client subscribes to its domain's
// conferences; internal/push/node_ack_test.go cuts the connection that
// carries a reply and checks that the message comes again when the client
// connects again with its clientId.
//
//   node ack.js <publish-url> <cookie> <user_domain_moid> [--transport websocket|long-polling]
//
// One JSON object a line on stdout:
//   {"event":"handshake","successful":...,"clientId":...,"ack":...}
//   {"event":"ready","transport":...}                 subscribed
//   {"event":"connect","successful":...}              each /meta/connect reply
//   {"event":"message","channel":...,"data":{...}}
// A line "quit" on stdin disconnects and exits.

import { adapt } from "cometd-nodejs-client";
import { CometD } from "cometd";
import { AckExtension } from "cometd/AckExtension.js";
import * as readline from "node:readline";

const args = process.argv.slice(2);
if (args.length < 3) {
    console.error("usage: node ack.js <publish-url> <cookie> <user_domain_moid> [--transport websocket|long-polling]");
    process.exit(2);
}
const [url, cookie, domain] = args;
const i = args.indexOf("--transport");
const transport = i >= 0 && i + 1 < args.length ? args[i + 1] : "websocket";
const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

adapt();
const cookieHeader = "SSO_COOKIE_KEY=" + cookie;
const BaseWebSocket = window.WebSocket;
window.WebSocket = class extends BaseWebSocket {
    constructor(address, protocols) {
        super(address, protocols, {headers: {Cookie: cookieHeader}});
    }
};

const cometd = new CometD();
cometd.registerExtension("ack", new AckExtension());
if (transport === "long-polling") {
    cometd.unregisterTransport("websocket");
}
cometd.unregisterTransport("callback-polling");
// Retry a failed connect soon (the test cuts one).
cometd.configure({url: url, logLevel: "warn", requestHeaders: {Cookie: cookieHeader}, backoffIncrement: 100, maxBackoff: 500});

cometd.addListener("/meta/connect", (m) => out({event: "connect", successful: m.successful === true}));
cometd.addListener("/meta/handshake", (reply) => {
    out({event: "handshake", successful: reply.successful, clientId: reply.clientId || "",
        ack: reply.ext ? reply.ext.ack : null});
    if (!reply.successful) {
        return;
    }
    cometd.subscribe("/userdomains/" + domain + "/confs/**",
        (m) => out({event: "message", channel: m.channel, data: m.data}),
        (r) => out({event: r.successful ? "ready" : "subscribe-failed", transport: cometd.getTransport().type, error: r.error || ""}));
});
cometd.handshake();

readline.createInterface({input: process.stdin}).on("line", (line) => {
    if (line.trim() === "quit") {
        cometd.disconnect(() => process.exit(0));
        setTimeout(() => process.exit(0), 3000);
    }
});
