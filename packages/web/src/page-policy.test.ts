import { describe, expect, it } from 'vitest';
import { askseamPageContentSecurityPolicy } from './page-policy.js';

const directives = (policy: string) => new Map(policy.split('; ').map((part) => [part.split(' ')[0]!, part.split(' ').slice(1)]));

describe('askseamPageContentSecurityPolicy', () => {
  it('lets only the page own scripts run and reach only its own host and socket', () => {
    const policy = directives(askseamPageContentSecurityPolicy({ port: 4317 }));
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('connect-src')).toEqual(["'self'", 'ws://127.0.0.1:4317', 'ws://localhost:4317']);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
  });

  it('lists the socket origins of the host names given, and only self without a port', () => {
    expect(directives(askseamPageContentSecurityPolicy({ port: 80, hosts: ['questions.example'] })).get('connect-src')).toEqual(["'self'", 'ws://questions.example:80']);
    expect(directives(askseamPageContentSecurityPolicy({ port: undefined })).get('connect-src')).toEqual(["'self'"]);
  });
});
