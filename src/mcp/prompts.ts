// The MCP prompts: four argument-less conversation starters, named as the analysis
// upstream names its prompts, each steering an agent to the tool that answers the question
// and to what the answer can and cannot claim. The wording is ours.

export interface McpPrompt {
  name: string;
  title: string;
  description: string;
  /** The user message the prompt puts into the conversation. */
  text: string;
}

const HONESTY = 'Report what the tool returns, including every refusal and its code; do not turn a descriptive result into a forecast, a trading signal or a claim that the numbers are true.';

export const MCP_PROMPTS: readonly McpPrompt[] = [
  {
    name: 'ab_test_verdict',
    title: 'Read an A/B test',
    description: 'Asks for the successes and trials of each arm, runs ab_test and explains its verdict with its uncertainty.',
    text:
      'I want to know whether the difference between the arms of an A/B test is more than noise. Ask me for each arm\'s label, successes and trials if I have not given them, then call the ab_test tool. ' +
      `Explain the verdict and the interval the tool reports, and say when it is not decided yet. ${HONESTY}`,
  },
  {
    name: 'is_this_number_real',
    title: 'Is this movement more than sampling noise?',
    description: 'Asks for the number, its history or sample size, and uses real_or_sampling or did_it_change to say whether it stands out from noise.',
    text:
      'I have a number that moved and want to know whether the move is real or within sampling noise. Ask me for the values (a history, or a rate with its sample size) if I have not given them. ' +
      'Use real_or_sampling for a rate with a sample size and did_it_change for a series, and say which one you used and why. ' +
      'A change statistic from did_it_change is not an e-value: never pass it to which_metrics_matter (e-BH), which takes e-values only. ' +
      `Say plainly when the data cannot decide. ${HONESTY}`,
  },
  {
    name: 'market_noise_review',
    title: 'Review market series for noise and staleness',
    description: 'Collects market series with their sources and timestamps and runs market_assessment to see which moves deserve attention.',
    text:
      'Review my market series. Ask me for each series\' id, observations (observed_at, value, and available_at when known), source and rights, and the as-of instant. ' +
      'Call market_assessment, then go through the attention queue first and the visibility gaps second, quoting the reasons the tool gives for each series. ' +
      `Stale, gappy or unlicensed series are findings in themselves. ${HONESTY}`,
  },
  {
    name: 'correlation_risk_review',
    title: 'Check whether series move as one',
    description: 'Runs spectral_assessment on aligned series to tell a shared driver from noise, with dyson_reference as the noise baseline when useful.',
    text:
      'I hold several series and want to know whether they move together more than independent noise would. Ask me for the series (aligned observations) and the as-of instant, then call spectral_assessment. ' +
      'Explain the leading eigenvalues against the noise band the tool reports, and use dyson_reference only to show what pure noise of the same shape looks like. ' +
      `Co-movement over a window is not a forecast that it will continue. ${HONESTY}`,
  },
];

export function mcpPrompt(name: string): McpPrompt | undefined {
  return MCP_PROMPTS.find((p) => p.name === name);
}
