// Run first by `npm install`, `npm start`, `npm run dev` and `npm test`: on a
// Node.js older than package.json's engines.node, the TypeScript scripts that
// follow die with an ERR_UNKNOWN_FILE_EXTENSION stack trace that says nothing
// useful. Say in one line what is needed instead.
// Plain CommonJS in ES5 syntax on purpose, so that any old Node can parse it.
'use strict';

var path = require('path');

var required = '24.16';
try {
  var range = require(path.join(__dirname, '..', 'package.json')).engines.node;
  var found = /(\d+)\.(\d+)/.exec(range);
  if (found) required = found[1] + '.' + found[2];
} catch (error) {
  // Keep the default: the check must never be the thing that fails oddly.
}

// ATRIUM_CHECK_NODE_VERSION stands in for the running version in the tests,
// for machines that have no old Node to run this with.
var current = process.env.ATRIUM_CHECK_NODE_VERSION || process.versions.node;

function parts(version) {
  var match = /^v?(\d+)\.(\d+)/.exec(version) || [];
  return [Number(match[1]) || 0, Number(match[2]) || 0];
}

var have = parts(current);
var need = parts(required);
if (have[0] < need[0] || (have[0] === need[0] && have[1] < need[1])) {
  process.stderr.write(
    'Atrium needs Node.js ' + required + ' or newer (this is ' + current.replace(/^v/, '') + '): ' +
      'install it from https://nodejs.org, or with nvm run `nvm install 24 && nvm use 24`, then run the command again.\n'
  );
  process.exit(1);
}
