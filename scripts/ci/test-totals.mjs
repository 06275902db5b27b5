#!/usr/bin/env node
// Adds up the JSON reports that .ci/run's vitest steps write (TEST_REPORT_FILE, vitest.config.ts)
// and prints one closing line, "tests: N passed, N failed, N skipped": vitest's own summary is
// per step, and a CI reader that looks for one count at the end of the run finds it here.
// Exits 1 when a report is missing or unreadable, when any test failed, or when none ran.
import console from 'node:console';
import { readFileSync } from 'node:fs';
import process from 'node:process';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: test-totals.mjs REPORT.json ...');
  process.exit(2);
}

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of files) {
  let report;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    console.error(`${file}: no readable vitest report (${err.message})`);
    process.exit(1);
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
  console.log(`${file}: ${report.numPassedTests} passed, ${report.numFailedTests} failed`);
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (failed > 0 || passed === 0) process.exit(1);
