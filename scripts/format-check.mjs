// The format check: eslint.config.js's @stylistic rules alone (the layout
// the code keeps), over what `eslint .` lints. `npm run lint` runs them too,
// with every other rule; this one answers only "is it formatted".
//
//   node scripts/format-check.mjs          reports, and fails on any finding
//   node scripts/format-check.mjs --fix    rewrites what the rules can fix
import { ESLint } from 'eslint';

const fix = process.argv.includes('--fix');
const eslint = new ESLint({
  fix,
  ruleFilter: ({ ruleId }) => ruleId.startsWith('@stylistic/'),
  // the other rules do not run: their disable comments are not "unused"
  overrideConfig: { linterOptions: { reportUnusedDisableDirectives: 'off' } },
});
const results = await eslint.lintFiles(['.']);
if (fix) await ESLint.outputFixes(results);
const formatter = await eslint.loadFormatter('stylish');
const output = await formatter.format(results);
if (output) console.log(output);
const problems = results.reduce((n, r) => n + r.errorCount + r.warningCount, 0);
if (problems > 0) process.exitCode = 1;
else console.log(`format: ${results.length} files checked`);
