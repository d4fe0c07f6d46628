import { describe, expect, it } from 'vitest';
import { checkAddDomainInput, suggestedDomain } from '../../../../src/lib/dashboard/add-domain-check.ts';
import { configSummary, startOptions } from '../../../../src/lib/dashboard/scan-options.ts';
import { DEFAULT_SCAN_CONFIG } from '../../../../src/model/contract.ts';

const free = { tier: 'free', email: 'ann@acme.io' };

describe('the add-domain field', () => {
  it('requires a domain, a valid one, with the messages word for word', () => {
    expect(checkAddDomainInput('   ', free)).toEqual({ ok: false, message: 'Domain is required' });
    expect(checkAddDomainInput('not a domain', free)).toEqual({
      ok: false,
      message: 'Please enter a valid domain (e.g., example.com or app.example.com)',
    });
    expect(checkAddDomainInput('127.0.0.1', { tier: 'intro', email: 'ann@acme.io' }).ok).toBe(false);
  });

  it('regression: a pasted URL is cut to its host name, not refused', () => {
    const intro = { tier: 'intro', email: 'ann@acme.io' };
    for (const [typed, domain] of [
      ['https://acme-widgets.com/login', 'acme-widgets.com'],
      ['example.com/', 'example.com'],
      ['HTTP://App.Acme-Widgets.com:8443/a?b=c#d', 'app.acme-widgets.com'],
      ['  acme-widgets.com?utm=x ', 'acme-widgets.com'],
      ['https://ann:secret@acme-widgets.com/', 'acme-widgets.com'],
    ])
      expect(checkAddDomainInput(typed as string, intro), typed).toEqual({ ok: true, domain });
    // What is left after the cut still meets the format rule.
    expect(checkAddDomainInput('https://127.0.0.1/', intro).ok).toBe(false);
    expect(checkAddDomainInput('https:///login', intro)).toEqual({
      ok: false,
      message: 'Domain is required',
    });
  });

  it('keeps the free tier to the e-mail domain and its subdomains, case-insensitive and trimmed', () => {
    expect(checkAddDomainInput('  ACME.io ', free)).toEqual({ ok: true, domain: 'acme.io' });
    expect(checkAddDomainInput('app.acme.io', free)).toEqual({ ok: true, domain: 'app.acme.io' });
    expect(checkAddDomainInput('notacme.io', free)).toEqual({
      ok: false,
      message: 'Free tier is limited to your email domain (acme.io) and its subdomains',
    });
  });

  it('says so when a free account has only a webmail address', () => {
    const check = checkAddDomainInput('acme.io', { tier: 'free', email: 'ann@gmail.com' });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(/no company e-mail domain/);
  });

  it('lets paid plans add any valid domain', () => {
    expect(checkAddDomainInput('other.org', { tier: 'intro', email: 'ann@gmail.com' })).toEqual({
      ok: true,
      domain: 'other.org',
    });
  });

  it('suggests the company e-mail domain unless it is webmail or already monitored', () => {
    expect(suggestedDomain('ann@acme.io', [])).toBe('acme.io');
    expect(suggestedDomain('ann@acme.io', ['acme.io'])).toBeNull();
    expect(suggestedDomain('ann@gmail.com', [])).toBeNull();
    expect(suggestedDomain(null, [])).toBeNull();
  });
});

describe('scan options', () => {
  it('map a domain configuration to the start-scan request', () => {
    expect(startOptions(DEFAULT_SCAN_CONFIG)).toEqual({
      skip_discovery: false,
      use_certificate_transparency: true,
      use_multi_stage_validation: true,
    });
  });

  it('sum up the configuration in one line', () => {
    expect(configSummary(DEFAULT_SCAN_CONFIG)).toBe(
      'Scans every day with subdomain discovery, certificate transparency logs, multi-stage validation.',
    );
    expect(
      configSummary({
        skipDiscovery: true,
        useCertificateTransparency: false,
        useMultiStageValidation: false,
        scanFrequency: 'manual',
      }),
    ).toBe(
      'Scans only when you start a scan with only the names you already have (no discovery), single-pass checks.',
    );
  });
});
