// The fixed caveats every triage result carries (our wording; only the count of seven
// and their role follow the upstream contract).
export const NARRATIVE_LIMITS: readonly string[] = Object.freeze([
  'Grouping by shared wording shows that reports repeat each other; it does not judge whether a claim is true, important or independently confirmed.',
  'Only the events in this request were considered; reports the caller did not send are unknown here, so absence from the result proves nothing.',
  'Source families are taken from what each event declares (family, link host or source id) and are not checked for common ownership or syndication.',
  'Titles are compared as sets of normalised tokens, so paraphrases, translations and equivalent units such as "5%" and "5 percent" can remain in separate clusters.',
  'Clustering is greedy and compares each event only with the first member of earlier clusters, so membership is not transitive and depends on publication order.',
  'A conflict candidate only signals that one event key appears under differently worded or quantified reports; a person has to review it.',
  'Queue order follows conflicts, source kind and recency, never how often a story was repeated; no link is fetched and no title is acted upon.',
]);
