import type { Command } from 'commander';
import { loadConfig, SETTINGS, type Config, type SettingSpec } from '../core/config.js';

/** Adds one flag per configuration setting, documenting its variable and default. */
export function addConfigOptions(command: Command, only?: ReadonlyArray<SettingSpec['key']>): Command {
  for (const spec of SETTINGS) {
    if (only && !only.includes(spec.key)) continue;
    command.option(spec.flag, `${spec.description} [env ${spec.env}, default ${spec.defaultText}]`);
  }
  return command;
}

/** Reads the configuration from the environment and the parsed flags (flags win). */
export function configFromOptions(options: Record<string, unknown>): Config {
  const flags: Partial<Record<SettingSpec['key'], string>> = {};
  for (const spec of SETTINGS) {
    const name = spec.flag.replace(/^--/, '').split(' ')[0].replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    const value = options[name];
    if (typeof value === 'string') flags[spec.key] = value;
  }
  return loadConfig(process.env, flags);
}
