import { describe, expect, it } from 'vitest';
import { Redactor } from '../../src/redact.js';

const KEY = 'mint_0123456789abcdefghijklmnop';

describe('Redactor', () => {
  const redactor = new Redactor();
  redactor.add(KEY);

  it('scrubs the key wherever it appears', () => {
    expect(redactor.redact(`key=${KEY}; again ${KEY}`)).toBe('key=***; again ***');
  });

  it('scrubs a credential after Bearer, even one it was not given', () => {
    expect(redactor.redact('Authorization: Bearer mint_someoneelseskey123')).toBe(
      'Authorization: Bearer ***',
    );
  });

  it.each([
    'Send Authorization: Bearer mint_<key>',
    'Authorization: Bearer mint_…',
    'Authorization: Bearer <token>',
    'Authorization: Bearer $ADMIN_API_KEY',
  ])('leaves a placeholder alone: %s', (hint) => {
    expect(redactor.redact(hint)).toBe(hint);
  });

  it('scrubs a cut copy of the key, at either end of a line', () => {
    expect(redactor.redact(`Prompt: rotate ${KEY.slice(0, 16)}…`)).toBe('Prompt: rotate ***…');
    expect(redactor.redact(`…${KEY.slice(12)} was echoed`)).toBe('…*** was echoed');
  });

  it('scrubs a masked link whole, but not the pieces it shares with other text', () => {
    const withLink = new Redactor();
    const link = 'https://store.example.com/exports/site.tar.gz?X-Amz-Signature=0123456789abcdef';
    withLink.add(link);
    expect(withLink.redact(`got ${link}`)).toBe('got ***');
    expect(withLink.redact('from https://store.example.com/exports/site.tar.gz?…')).toBe(
      'from https://store.example.com/exports/site.tar.gz?…',
    );
  });

  it('leaves short runs that happen to match the key', () => {
    expect(redactor.redact('mint_0123 and abcdefg')).toBe('mint_0123 and abcdefg');
  });
});
