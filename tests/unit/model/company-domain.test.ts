import { describe, expect, it } from 'vitest';
import { companyDomain } from '../../../src/model/company-domain.ts';

describe('companyDomain', () => {
  it.each([
    ['ann@acme.io', 'acme.io'],
    ['Ann@Sub.Acme.IO', 'sub.acme.io'],
    ['someone@gmail.com', undefined],
    ['x@outlook.com', undefined],
    ['x@hotmail.co.uk', undefined],
    ['x@yahoo.fr', undefined],
    ['x@icloud.com', undefined],
    ['x@protonmail.com', undefined],
    ['x@aol.com', undefined],
    // Regression: webmail the first list did not know counted as a company's domain.
    ['x@gmx.de', undefined],
    ['x@web.de', undefined],
    ['x@yandex.ru', undefined],
    ['x@mail.ru', undefined],
    ['x@proton.me', undefined],
    ['x@pm.me', undefined],
    ['x@zoho.com', undefined],
    ['x@fastmail.com', undefined],
    ['x@qq.com', undefined],
    ['x@163.com', undefined],
    ['x@live.com', undefined],
    ['x@me.com', undefined],
    ['x@t-online.de', undefined],
    ['x@comcast.net', undefined],
    // A company whose name starts like a generic webmail word is still a company.
    ['x@live-events.com', 'live-events.com'],
    ['x@webflowers.de', 'webflowers.de'],
    ['x@mail.acme.io', 'mail.acme.io'],
    ['no-at-sign', undefined],
    [null, undefined],
  ])('%s → %s', (email, expected) => {
    expect(companyDomain(email)).toBe(expected);
  });
});
