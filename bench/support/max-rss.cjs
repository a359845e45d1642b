// Preloaded into a measured process (node -r): prints its peak resident set size at exit.
process.on('exit', () => process.stderr.write(`max-rss-kb ${process.resourceUsage().maxRSS}\n`));
