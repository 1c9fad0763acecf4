// Fixed prose of the spectral result. Written for this service; only the token values
// elsewhere in the result are contractual.

export const SPECTRAL_LIMITS: readonly string[] = [
  'These are descriptive research diagnostics: they carry no p-value or e-value, imply no causation and authorise no trade.',
  'The Marchenko–Pastur band assumes independent, identically distributed, unit-variance series and is not calibrated for finite samples.',
  'Eigenvalues inside or outside the band are not evidence of signal or of noise by themselves.',
  'Only intervals shared by every member, with identical start and end clocks, are used; nothing is filled, interpolated or paired off.',
  'One ineligible member, or a member without contiguous intervals, blocks the whole panel instead of being dropped.',
  'Correlations describe co-movement of transformed values inside each window; they are not covariances and do not forecast.',
  'The shrinkage candidate is experimental, has not been validated out of sample and is not guaranteed to be positive definite.',
  'Changes between windows are descriptive and are never a calibrated regime-change test.',
  'Declared sample sizes are reported as supplied; no sampling adjustment is applied.',
  'The panel covers only the series supplied in the request, not the wider market.',
];
