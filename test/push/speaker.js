// Drives Confer's push service with the official CometD JavaScript client
// (npm cometd + cometd-nodejs-client), as reference 02-push-guide.md
// describes a client: handshake with the login's SSO_COOKIE_KEY cookie,
// read user_domain_moid from the handshake's ext, subscribe with
// wildcards, and after a re-handshake (the server restarted) subscribe
// again.
//
//   node speaker.js <publish-url> <cookie> <user_domain_moid>
//        [--transport websocket|long-polling] [--expired <cookie>]
//
// It writes one JSON object a line on stdout (internal/push/node_test.go
// reads them):
//   {"event":"handshake","case":"nocookie"|"expired"|"foreign"|"login",...}
//   {"event":"subscribe","channel":...,"successful":...,"error":...}
//   {"event":"ready","again":false|true,"transport":...}  subscribed
//   {"event":"message","channel":...,"data":{...}}
//   {"event":"rehandshake"}                               handshaken again
//   {"event":"disconnected"}
// A line "quit" on stdin disconnects and exits.

import { adapt } from "cometd-nodejs-client";
import { CometD } from "cometd";
import * as readline from "node:readline";

const args = process.argv.slice(2);
if (args.length < 3) {
    console.error("usage: node speaker.js <publish-url> <cookie> <user_domain_moid> [--transport websocket|long-polling] [--expired <cookie>]");
    process.exit(2);
}
const [url, cookie, domain] = args;
const option = (name, def) => {
    const i = args.indexOf(name);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const transport = option("--transport", "websocket");
const expired = option("--expired", "");

const out = (obj) => process.stdout.write(JSON.stringify(obj) + "\n");

// A browser sends its cookies with every request and with the websocket
// upgrade. In Node the adapter's XMLHttpRequest takes them as a request
// header, and the websocket gets them from this wrapper; cookieNow is the
// cookie of the client being run.
adapt();
let cookieNow = "";
const BaseWebSocket = window.WebSocket;
window.WebSocket = class extends BaseWebSocket {
    constructor(address, protocols) {
        super(address, protocols, cookieNow ? {headers: {Cookie: cookieNow}} : {});
    }
};

function newClient(cookieValue) {
    cookieNow = cookieValue ? "SSO_COOKIE_KEY=" + cookieValue : "";
    const cometd = new CometD();
    if (transport === "long-polling") {
        cometd.unregisterTransport("websocket");
    }
    cometd.unregisterTransport("callback-polling");
    cometd.configure({
        url: url,
        logLevel: "warn",
        requestHeaders: cookieNow ? {Cookie: cookieNow} : {},
    });
    return cometd;
}

// handshakeOnce resolves with the first handshake reply.
function handshakeOnce(cometd) {
    return new Promise((resolve) => cometd.handshake((reply) => resolve(reply)));
}

function subscribeOnce(cometd, channel, onMessage) {
    return new Promise((resolve) => cometd.subscribe(channel, onMessage, (reply) => resolve(reply)));
}

// Bad handshakes: no cookie, a cookie whose login expired.
async function refused(caseName, cookieValue) {
    const cometd = newClient(cookieValue);
    const reply = await handshakeOnce(cometd);
    out({event: "handshake", case: caseName, successful: reply.successful, error: reply.error || "",
        reconnect: reply.advice ? reply.advice.reconnect : ""});
    if (!cometd.isDisconnected()) {
        cometd.disconnect();
    }
}

async function main() {
    await refused("nocookie", "");
    if (expired) {
        await refused("expired", expired);
    }

    const cometd = newClient(cookie);
    const base = "/userdomains/" + domain + "/confs";
    const channels = [base, base + "/*", base + "/**"];
    const onMessage = (m) => out({event: "message", channel: m.channel, data: m.data});
    let handshakes = 0;
    let userDomain = "";

    // Subscribe after every successful handshake: a re-handshake (the
    // server restarted and forgot the clientId) drops the subscriptions
    // (reference 02 "断链重订阅").
    cometd.addListener("/meta/handshake", (reply) => {
        if (!reply.successful) {
            return;
        }
        handshakes++;
        userDomain = reply.ext && reply.ext.user_domain_moid;
        if (handshakes > 1) {
            out({event: "rehandshake", user_domain_moid: userDomain});
        }
        const again = handshakes > 1;
        const results = [];
        cometd.batch(() => {
            for (const ch of channels) {
                results.push(subscribeOnce(cometd, ch, onMessage));
            }
        });
        Promise.all(results).then((replies) => {
            for (const r of replies) {
                if (!r.successful) {
                    out({event: "subscribe", channel: r.subscription, successful: false, error: r.error || ""});
                    return;
                }
            }
            out({event: "ready", again: again, transport: cometd.getTransport().type});
        });
    });

    const reply = await handshakeOnce(cometd);
    out({event: "handshake", case: "login", successful: reply.successful, error: reply.error || "",
        user_domain_moid: reply.ext ? reply.ext.user_domain_moid : ""});
    if (!reply.successful) {
        process.exit(1);
    }

    // Another domain's channels are refused.
    const foreign = await subscribeOnce(cometd, "/userdomains/not-" + domain + "/confs/**", () => {});
    out({event: "subscribe", case: "foreign", channel: foreign.subscription, successful: foreign.successful,
        error: foreign.error || ""});

    const rl = readline.createInterface({input: process.stdin});
    rl.on("line", (line) => {
        if (line.trim() === "quit") {
            cometd.disconnect(() => {
                out({event: "disconnected"});
                process.exit(0);
            });
            setTimeout(() => process.exit(0), 3000);
        }
    });
}

main().catch((e) => {
    console.error(e);
    process.exit(1);
});
