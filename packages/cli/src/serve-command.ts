// `evcal serve` from the command line: options from flags, the environment and a config file
// (options.ts), checked with messages that name where each value came from; then the server,
// stopped gracefully on SIGTERM or SIGINT.
import { isValidZoneName } from '@evcal/core';
import { LANGUAGES } from '@evcal/http';
import { options, UsageError } from './command-args';
import type { DemoAdministrator } from './demo-account';
import { demoDataset } from './demo-dataset';
import { createLogger, LOG_LEVELS, type LogLevel } from './logger';
import { argSpec, ConfigError, resolveOptions, SERVE_OPTIONS, type ResolvedOptions, type ServeOptionName } from './options';
import { serve } from './serve';
import type { ServeUser } from './serve-options';
import { parseUser } from './serve-users';
import { DEFAULT_STORAGE, redact } from './storage-url';

export async function runServe(args: readonly string[], help: string): Promise<number> {
  const { values } = options(args, argSpec(SERVE_OPTIONS));
  if (values.help) {
    process.stdout.write(help);
    return 0;
  }
  let resolved: ResolvedOptions;
  try {
    resolved = resolveOptions(SERVE_OPTIONS, values, process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  const o = <T>(name: ServeOptionName) => resolved[name] as { value: T; source: string } | undefined;
  const str = (name: ServeOptionName) => o<string>(name)?.value;
  const num = (name: ServeOptionName) => o<number>(name)?.value;

  const logLevel = o<string>('log-level');
  if (logLevel && !LOG_LEVELS.includes(logLevel.value as LogLevel)) {
    throw new UsageError(`${logLevel.source} must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel.value}"`);
  }
  const logger = createLogger({ level: (logLevel?.value as LogLevel | undefined) ?? 'info' });
  const basePath = o<string>('base-path') && basePathOf(o<string>('base-path')!);
  const namespace = o<string>('namespace') && namespaceOf(o<string>('namespace')!);
  const nowOption = o<string>('now');
  const now = nowOption === undefined ? undefined : new Date(nowOption.value);
  if (now && Number.isNaN(now.getTime())) throw new UsageError(`${nowOption!.source} must be an ISO 8601 instant, got "${nowOption!.value}"`);
  const timezone = o<string>('timezone');
  if (timezone && !isValidZoneName(timezone.value)) throw new UsageError(`${timezone.source} ${timezone.value}: not a time zone (an IANA name such as Europe/Rome, or UTC+2)`);
  let users: ServeUser[];
  try {
    users = (o<string[]>('user')?.value ?? []).map(parseUser);
  } catch (e) {
    throw new UsageError((e as Error).message.replace(/^--user/, o<string[]>('user')!.source));
  }
  const demo = o<boolean>('demo')?.value === true;
  const languagesOption = o<string>('languages');
  const languages = languagesOption?.value.split(',').map((l) => l.trim());
  for (const language of languages ?? []) {
    if (!LANGUAGES.includes(language)) throw new UsageError(`${languagesOption!.source} ${languagesOption!.value}: no catalogue for "${language}" (one of ${LANGUAGES.join(', ')})`);
  }
  if (languages && new Set(languages).size !== languages.length) throw new UsageError(`${languagesOption!.source} lists a language twice: ${languagesOption!.value}`);
  const cors = o<string[]>('cors-origin');
  for (const origin of cors?.value ?? []) {
    if (origin !== '*' && !isOrigin(origin)) throw new UsageError(`${cors!.source} must be an origin such as https://app.example, or "*", got "${origin}"`);
  }
  const siteUrl = o<string>('site-url') && siteUrlOf(o<string>('site-url')!);
  const storage = str('storage') ?? DEFAULT_STORAGE;
  const shutdownSeconds = num('shutdown-timeout');
  const maxLag = o<string>('replica-max-lag');
  const maxLagSeconds = maxLag === undefined ? undefined : Number(maxLag.value.replace(/s$/, ''));
  if (maxLag && !(Number.isFinite(maxLagSeconds) && maxLagSeconds! > 0)) throw new UsageError(`${maxLag.source} must be a number of seconds above 0, such as 5 or 0.5, got "${maxLag.value}"`);
  const replicas = o<string[]>('read-replica');
  for (const url of replicas?.value ?? []) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError(`${replicas!.source} must be postgres:// URLs of hot standbys of the storage, got "${redact(url)}"`);
  }
  const retries = o<string>('webhook-retries');
  const retrySchedule = retries && durations(retries);
  const server = await serve({
    ...(str('host') !== undefined ? { host: str('host') } : {}),
    ...(num('port') !== undefined ? { port: num('port') } : {}),
    storage,
    ...(timezone ? { timezone: timezone.value } : {}),
    ...(str('seed') !== undefined ? { seed: str('seed') } : {}),
    ...(num('default-per-page') !== undefined ? { defaultPerPage: num('default-per-page') } : {}),
    ...(num('max-per-page') !== undefined ? { maxPerPage: num('max-per-page') } : {}),
    ...(now !== undefined ? { now } : {}),
    ...(num('rate-limit') !== undefined ? { rateLimit: num('rate-limit') } : {}),
    ...(cors?.value.length ? { corsOrigins: cors.value } : {}),
    ...(languages ? { languages } : {}),
    ...(o<boolean>('require-if-match')?.value ? { requireIfMatch: true } : {}),
    ...(basePath !== undefined ? { basePath } : {}),
    ...(namespace !== undefined ? { namespace } : {}),
    ...(demo ? { dataset: demoDataset(now), demoAdministrator: !users.some((u) => u.role === 'administrator') } : {}),
    ...(o<boolean>('trust-proxy')?.value ? { trustProxy: true } : {}),
    ...(siteUrl !== undefined ? { siteUrl } : {}),
    ...(shutdownSeconds !== undefined ? { shutdownTimeoutMs: shutdownSeconds * 1000 } : {}),
    timeouts: {
      ...(num('headers-timeout') !== undefined ? { headersMs: num('headers-timeout')! * 1000 } : {}),
      ...(num('request-timeout') !== undefined ? { requestMs: num('request-timeout')! * 1000 } : {}),
      ...(num('keep-alive-timeout') !== undefined ? { keepAliveMs: num('keep-alive-timeout')! * 1000 } : {}),
      ...(num('idle-timeout') !== undefined ? { idleMs: num('idle-timeout')! * 1000 } : {}),
    },
    ...(num('change-retention-days') !== undefined ? { changeRetentionDays: num('change-retention-days') } : {}),
    ...(num('idempotency-ttl') !== undefined ? { idempotencyTtlSeconds: num('idempotency-ttl') } : {}),
    webhooks: {
      ...(num('webhook-timeout') !== undefined ? { timeoutMs: num('webhook-timeout') } : {}),
      ...(retrySchedule ? { retrySchedule } : {}),
      ...(o<boolean>('webhook-allow-private')?.value ? { allowPrivateAddresses: true } : {}),
    },
    ...(replicas?.value.length ? { readReplicas: replicas.value } : {}),
    ...(maxLagSeconds !== undefined ? { replicaMaxLagMs: maxLagSeconds * 1000 } : {}),
    logger,
    users,
  });
  // Handlers first: the line below tells supervisors the server is ready, and they may stop it at once.
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      logger.info('signal received', { signal });
      // A second signal while stopping cuts the requests still in flight.
      server.close().then(() => resolve(0), () => resolve(1));
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  logger.announce(`evcal listening on ${server.origin}`, {
    origin: server.origin, ...(siteUrl !== undefined ? { site_url: siteUrl } : {}), page: `${server.origin}/`, api_reference: `${server.origin}/docs`, api_root: server.apiRoot, storage: redact(storage),
    ...(Object.keys(server.languageRoots).length ? { languages: server.languageRoots } : {}),
  });
  if (server.demoAdministrator) process.stderr.write(demoNotice(server.demoAdministrator, server.apiRoot, storage));
  return stopped;
}

/**
 * What `--demo` tells the person at the terminal, on stderr (a secret has no place in the
 * logs): the administrator's token when this start made it, and how to make another.
 */
function demoNotice(admin: DemoAdministrator, apiRoot: string, storage: string): string {
  const another = `npx @evcal/cli tokens create --user ${admin.name} --storage ${redact(storage)}`;
  if (admin.token === undefined) {
    return `Demo calendar ready. Its administrator is user ${admin.id} "${admin.name}", whose token was printed when it was made;\n`
      + `a new one: ${another}\n`;
  }
  const kept = storage === 'memory' || storage === 'memory:' ? 'gone when the server stops, as the memory storage is' : 'kept across restarts';
  return `Demo calendar ready. Administrator token (user ${admin.id} "${admin.name}"; shown this once, stored only as a hash, ${kept}):\n`
    + `  ${admin.token}\n`
    + `  curl -H "Authorization: Bearer ${admin.token}" ${apiRoot}/events\n`
    + `A new one: ${another}\n`;
}

/** `scheme://host[:port]`, as browsers send it in `Origin`. */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}

/** `https://cal.example.org`, with or without a trailing slash: an origin, no path. */
function siteUrlOf({ value, source }: { value: string; source: string }): string {
  const origin = value.replace(/\/$/, '');
  if (!isOrigin(origin) || !/^https?:/.test(origin)) throw new UsageError(`${source} must be an http or https origin such as https://cal.example.org (no path), got "${value}"`);
  return origin;
}

/** `/wp-json`, `wp-json/` and `/wp-json/` all mean `/wp-json`; `/` means the root. */
function basePathOf({ value, source }: { value: string; source: string }): string {
  const path = `/${value.replace(/^\/+|\/+$/g, '')}`;
  if (!/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(path)) throw new UsageError(`${source} must be a URL path such as /wp-json, got "${value}"`);
  return path === '/' ? '' : path;
}

function namespaceOf({ value, source }: { value: string; source: string }): string {
  const namespace = value.replace(/^\/+|\/+$/g, '');
  if (!/^[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(namespace)) {
    throw new UsageError(`${source} must be path segments such as tribe/events/v1, got "${value}"`);
  }
  return namespace;
}

/** `200ms,5s,5m,2h` in milliseconds. */
function durations({ value, source }: { value: string; source: string }): number[] {
  const unit = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
  return value.split(',').map((part) => {
    const m = /^\s*(\d+(?:\.\d+)?)(ms|s|m|h)\s*$/.exec(part);
    if (!m) throw new UsageError(`${source} must be durations such as 5s,5m,2h, got "${value}"`);
    return Math.round(Number(m[1]) * unit[m[2] as keyof typeof unit]);
  });
}
