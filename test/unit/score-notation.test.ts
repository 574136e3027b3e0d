import { describe, expect, it } from 'vitest';
import { scoreNotation } from '../../web/shared/score-notation.js';

const mask = (inputMask: string) => ({ inputMask, decimals: null });

describe('score notation of inputs', () => {
  it('German inputs read like the finals: the mask’s decimals, no leading zeros, the decimal comma', () => {
    const german = scoreNotation(mask('00.000'), 'de');
    expect(german.format(3.8)).toBe('3,800');
    expect(german.format(12.95)).toBe('12,950');
    expect(german.example).toBe('9,500');
    expect(german.normalize('3,8')).toEqual({ ok: true, value: 3.8, text: '3,800' });
    expect(german.normalize('3.8')).toEqual({ ok: true, value: 3.8, text: '3,800' });
    expect(german.normalize('x')).toEqual({ ok: false });
  });

  it('English inputs keep the mask’s rendering (interface input mask rules 4-5), and read either separator', () => {
    const english = scoreNotation(mask('00.000'), 'en');
    expect(english.format(3.8)).toBe('03.800');
    expect(english.normalize('3,8')).toEqual({ ok: true, value: 3.8, text: '03.800' });
    expect(scoreNotation(mask('0,00'), 'en').format(5)).toBe('5,00');
  });

  it('times and decimal counts follow the same rule; the stored value is the same in both languages', () => {
    const time = mask('0:00.00');
    expect(scoreNotation(time, 'de').normalize('65.5')).toEqual({ ok: true, value: 65.5, text: '1:05,50' });
    expect(scoreNotation(time, 'en').normalize('65,5')).toEqual({ ok: true, value: 65.5, text: '1:05.50' });
    expect(scoreNotation(time, 'de').inputMode).toBe('text');
    const decimals = { inputMask: null, decimals: 2 };
    expect(scoreNotation(decimals, 'de').normalize('8.125')).toEqual({ ok: true, value: 8.13, text: '8,13' });
    expect(scoreNotation(decimals, 'en').normalize('8,125')).toEqual({ ok: true, value: 8.13, text: '8.13' });
    const plain = { inputMask: null, decimals: null };
    expect(scoreNotation(plain, 'de').format(9.5)).toBe('9,5');
    expect(scoreNotation(plain, 'en').example).toBe('9.5');
  });

  it('rounds a calculated value to what the input shows, whatever the language', () => {
    expect(scoreNotation(mask('00.00'), 'de').round(12.345)).toBe(12.35);
    expect(scoreNotation(mask('00.00'), 'en').round(12.345)).toBe(12.35);
  });
});
