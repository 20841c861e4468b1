#!/usr/bin/env node
"use strict";
// The `juice` of node_modules/.bin: runs the binary this package carries for this platform (or $JUICE_BIN),
// with the same arguments, standard streams and exit status; elsewhere it says which platforms it carries.
const { spawn } = require("node:child_process");
const { findJuiceBin } = require("../dist/cjs/binary.js");

let binary;
try {
    binary = findJuiceBin();
} catch (error) {
    process.stderr.write(`juice: ${error.message}\n`);
    process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
const forward = (signal) => child.kill(signal);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, forward);
child.on("error", (error) => {
    process.stderr.write(`juice: cannot run ${binary}: ${error.message}\n`);
    process.exit(127);
});
child.on("exit", (code, signal) => {
    if (signal) {
        process.removeAllListeners(signal);
        process.kill(process.pid, signal);
    } else {
        process.exit(code ?? 1);
    }
});
