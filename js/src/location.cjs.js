"use strict";
const path = require("node:path");

exports.packageDirectory = path.resolve(__dirname, "..", "..");
