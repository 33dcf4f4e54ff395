// Loaded by record.mjs with `node --require` into the reference's `ai` command: writes what `ai run` returned
// (or the error it failed with) to the file $PPE_CAPTURE as JSON, so a string result and a number or object
// result can be told apart (the command prints both as text). It patches oclif's Config: it changes nothing
// the reference does.
'use strict';
const fs = require('fs');
const out = process.env.PPE_CAPTURE;
const {Config} = require(require.resolve('@oclif/core', {paths: [process.env.PPE_APP]}));

function write(record) {
  if (out && !fs.existsSync(out)) fs.writeFileSync(out, JSON.stringify(record));
}

const runHook = Config.prototype.runHook;
Config.prototype.runHook = async function (event, opts, ...rest) {
  if (event === 'postrun') {
    let result = opts.result;
    if (result instanceof String) result = String(result);
    write({status: 'ok', result: result === undefined ? null : result});
  }
  return runHook.call(this, event, opts, ...rest);
};

const runCommand = Config.prototype.runCommand;
Config.prototype.runCommand = async function (...args) {
  try {
    return await runCommand.apply(this, args);
  } catch (error) {
    write({status: 'error', error: String(error && error.message || error)});
    throw error;
  }
};
