/* eslint-disable no-console -- a command-line script: its output is the point */
// Refreshes the label sources: `npm run labels:refresh [-- --check]`. For each source package it
// asks the registry for the newest version, installs it (package.json and package-lock.json change:
// commit them), rebuilds the labels file under the data folder and prints the counts per category.
// With --check it only reports which sources have a newer version.
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { chaindataLocation } from '../config.ts';
import { openAnalytics } from '../openAnalytics.ts';
import { labelStats } from './labels.ts';
import { LABEL_SOURCES, PACKAGE_SETS, sourceVersion } from './sources.ts';

const { values } = parseArgs({ options: { check: { type: 'boolean', default: false } } });
let changed = false;
for (const source of [...LABEL_SOURCES, ...PACKAGE_SETS]) {
  const installed = sourceVersion(source.package);
  const newest = execFileSync('npm', ['view', source.package, 'version'], { encoding: 'utf8' }).trim();
  console.log(`${source.id}: installed ${installed}, newest ${newest} (${source.license})`);
  if (newest !== installed && !values.check) {
    execFileSync('npm', ['install', '--save', `${source.package}@${newest}`], { stdio: 'inherit' });
    changed = true;
  }
}
if (!values.check) {
  // A new process reads the new package versions; this one still has the old ones loaded.
  if (changed) console.log('installed; run npm run labels:refresh again to rebuild the labels file');
  else {
    const engine = await openAnalytics(chaindataLocation(process.env));
    console.log(JSON.stringify(await labelStats(engine), null, 2));
    engine.close();
  }
}
