#!/usr/bin/env node
// Validates glTF files with the Khronos glTF-Validator (npm package pinned in package.json), all
// in one process. Usage: node tools/gltf-validate.js FILE... (or, with no argument, paths read
// from stdin one per line and answered one line each as they arrive). Prints one JSON line per file:
//   {"file": ..., "errors": n, "warnings": n, "infos": n, "hints": n, "messages": [...]}
// where messages are the issues of severity error or warning (at most 20). Exits 1 if any file
// has an error or a warning (or cannot be read), 0 otherwise.
'use strict';
const fs = require('fs');
const path = require('path');
const validator = require('gltf-validator');

async function validateFile(file) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 1000,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.join(dir, decodeURIComponent(uri)), (err, data) =>
          err ? reject(err.toString()) : resolve(new Uint8Array(data)));
      }),
  });
  const issues = report.issues;
  const messages = issues.messages
    .filter((m) => m.severity <= 1)
    .slice(0, 20)
    .map((m) => ({ code: m.code, severity: m.severity === 0 ? 'error' : 'warning', pointer: m.pointer, message: m.message }));
  return {
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages,
  };
}

async function* fileNames() {
  const args = process.argv.slice(2);
  if (args.length > 0) {
    yield* args;
    return;
  }
  // One path per line on stdin, answered line by line (a caller may keep this process open).
  const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (line.trim().length > 0) yield line.trim();
  }
}

async function main() {
  let failed = 0;
  for await (const file of fileNames()) {
    let result;
    try {
      result = await validateFile(file);
    } catch (e) {
      result = { file, errors: 1, warnings: 0, infos: 0, hints: 0, messages: [{ code: 'CANNOT_VALIDATE', severity: 'error', message: String(e) }] };
    }
    if (result.errors > 0 || result.warnings > 0) failed++;
    process.stdout.write(JSON.stringify(result) + '\n');
  }
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((e) => {
  process.stderr.write(String(e) + '\n');
  process.exitCode = 2;
});
