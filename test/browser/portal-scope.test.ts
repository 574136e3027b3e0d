/**
 * Issue 44 in the jury portal on the demo event, at 390 px: a released device shows its scores
 * read-only with a badge (German and English), a save the release overtook keeps the stored state,
 * the 409 prompt compares a field with the same field, an untouched form follows a write made
 * elsewhere, and group and team competitions point to the office.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { t } from '../support/tables.js';
import { waitFor } from '../support/server.js';
import { headToken } from '../support/tokens.js';
import { openPage, PHONE_390, saveScreenshot, type OpenedPage } from './support/browser.js';
import { useDemoEvent } from './support/demo.js';
import { noHorizontalOverflow, participantButton } from './support/portal.js';

interface Entry {
  id: number;
  participantId: number;
  disciplineId: number | null;
  score: number | null;
  firstName: string;
  lastName: string;
}

const demoEvent = useDemoEvent();
const opened: OpenedPage[] = [];
afterAll(async () => {
  for (const page of opened) await page.context.close().catch(() => undefined);
});

const kuer = () => demoEvent.demo.competitions.find((competition) => /^Kür weiblich/.test(competition.name))!;
const ofKind = (kind: string) => demoEvent.demo.competitions.find((competition) => competition.kind === kind)!;

async function open(query: Record<string, number | string>): Promise<OpenedPage> {
  const search = new URLSearchParams(Object.entries({ eventId: demoEvent.demo.event.id, ...query }).map(([k, v]) => [k, String(v)]));
  const page = await openPage(demoEvent.browser, `${demoEvent.server.url}/jury/?${search}`, PHONE_390);
  opened.push(page);
  return page;
}

async function send(method: string, path: string, body: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${demoEvent.server.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The competition's entries scored on the device, each participant once. */
async function scored(disciplineId: number): Promise<Entry[]> {
  const { server, demo } = demoEvent;
  const response = await fetch(`${server.url}/api/scores?eventId=${demo.event.id}&competitionId=${kuer().id}&limit=1000`);
  const { results } = (await response.json()) as { results: Entry[] };
  return results.filter((entry) => entry.disciplineId === disciplineId && entry.score !== null);
}

async function storedFinal(scoreId: number, disciplineId: number): Promise<number | null> {
  const { rows } = await demoEvent.server.pool.query<{ value: number | null }>(
    `SELECT rel_leistung AS value FROM ${t.wertungen_details} WHERE int_wertungenid = $1 AND int_disziplinenid = $2 AND int_versuch = 1 AND int_kp = 0`,
    [scoreId, disciplineId],
  );
  return rows[0]?.value ?? null;
}

const release = (disciplineId: number) =>
  send('POST', '/api/releases', { competitionId: kuer().id, disciplineId }, headToken).then((answer) => expect(answer.status).toBe(200));

/** A device of the Kür competition with at least `count` scored participants, not used by another test. */
const used = new Set<number>();
async function device(count: number): Promise<{ id: number; entries: Entry[] }> {
  for (const id of kuer().disciplineIds) {
    if (used.has(id)) continue;
    const entries = await scored(id);
    if (entries.length >= count) {
      used.add(id);
      return { id, entries };
    }
  }
  throw new Error(`no device of ${kuer().name} with ${count} scored participants left`);
}

/** The device of the conflict test, which leaves its second participant to the next test. */
let shared: { id: number; entries: Entry[] } | undefined;

const asNumber = (text: string) => Number(text.replace(',', '.'));

async function choose(page: Page, entry: Entry): Promise<void> {
  await participantButton(page, entry.participantId).click();
  await waitFor(async () => (await page.inputValue('#field-A')) !== '', { message: 'stored values in the form' });
}

describe('jury portal: released scopes, conflicts and the office’s competitions', () => {
  it('shows a released device read-only with a badge, in German and in English', async () => {
    const { id, entries } = await device(1);
    await release(id);
    const target = entries[0]!;
    const before = await storedFinal(target.id, id);
    for (const [lang, badge, note] of [
      ['de', 'Freigegeben', 'Der Oberkampfrichter hat dieses Gerät freigegeben'],
      ['en', 'Released', 'The head judge has released this device'],
    ] as const) {
      const portal = await open({ competitionId: kuer().id, disciplineId: id, lang });
      const { page } = portal;
      const row = page.locator(`.participant[data-participant-id="${target.participantId}"][data-released="true"]`);
      await row.waitFor({ timeout: 10_000 });
      expect(await page.locator('#participants-released').textContent()).toBe(badge);
      expect(await page.locator('#participants-released').isVisible()).toBe(true);
      await choose(page, target);
      expect(await page.locator('#released-badge').textContent()).toBe(badge);
      expect(await page.locator('#released-note').textContent()).toContain(note);
      expect(await page.locator('#save-button').count()).toBe(0);
      // The stored value shows and takes no typing, not even with Enter.
      const shown = await page.inputValue('#field-A');
      await page.focus('#field-A');
      await page.keyboard.type('9');
      await page.keyboard.press('Enter');
      expect(await page.inputValue('#field-A')).toBe(shown);
      expect(await noHorizontalOverflow(page)).toBe(true);
      await saveScreenshot(page, `portal-released-${lang}-390`);
      expect(portal.errors).toEqual([]);
    }
    expect(await storedFinal(target.id, id)).toBe(before);
  });

  it('a released squad marks its own rows only while every squad is listed', async () => {
    const { id } = await device(1);
    const { server, demo } = demoEvent;
    const squads = (await (await fetch(`${server.url}/api/events/${demo.event.id}/squads`)).json()) as {
      squads: Array<{ name: string; participants: Array<{ id: number }> }>;
    };
    const squad = squads.squads.find((candidate) => candidate.name === kuer().squads[0])!;
    const answer = await send('POST', '/api/releases', { competitionId: kuer().id, disciplineId: id, squadName: squad.name }, headToken);
    expect(answer.status).toBe(200);
    const portal = await open({ competitionId: kuer().id, disciplineId: id, lang: 'de' });
    const { page } = portal;
    await page.locator('.participant[data-released="true"]').first().waitFor({ timeout: 10_000 });
    const rows = await page.$$eval('.participant', (buttons) =>
      buttons.map((button) => ({
        id: Number(button.getAttribute('data-participant-id')),
        badge: button.querySelector('.released-badge')?.textContent ?? null,
      })),
    );
    const members = new Set(squad.participants.map((participant) => participant.id));
    expect(rows.some((row) => !members.has(row.id))).toBe(true);
    for (const row of rows) expect(row.badge).toBe(members.has(row.id) ? 'Freigegeben' : null);
    expect(await page.locator('#participants-released').isHidden()).toBe(true);
    expect(portal.errors).toEqual([]);
  });

  it('a save the release overtook: the stored value stands, the list does not say "not saved", the form turns read-only', async () => {
    const { id, entries } = await device(1);
    const target = entries[0]!;
    const before = await storedFinal(target.id, id);
    const portal = await open({ competitionId: kuer().id, disciplineId: id, lang: 'de' });
    const { page } = portal;
    await choose(page, target);
    // The head judge releases the device while the judge's save is on its way.
    let held = false;
    await page.route(/\/api\/(jury-results|scores\/save-value)$/, async (route) => {
      if (route.request().method() === 'POST' && !held) {
        held = true;
        await release(id);
      }
      await route.continue();
    });
    await page.focus('#field-A');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(String(asNumber(await page.inputValue('#field-A')) + 0.1).replace('.', ','));
    await page.keyboard.press('Tab');
    await page.focus('#save-button');
    await page.keyboard.press('Enter');
    const ack = page.locator('.ack[data-state="error"]', { hasText: 'inzwischen freigegeben' });
    await ack.waitFor({ timeout: 10_000 });
    expect(await ack.textContent()).toContain('gilt');
    const row = page.locator(`.participant[data-participant-id="${target.participantId}"]`);
    await page.locator(`.participant[data-participant-id="${target.participantId}"][data-released="true"]`).waitFor({ timeout: 10_000 });
    expect(await row.getAttribute('data-status')).toBe('completed');
    expect(await row.textContent()).not.toContain('nicht gespeichert');
    await page.locator('#released-badge').waitFor({ timeout: 10_000 });
    expect(await page.locator('#save-button').count()).toBe(0);
    expect(await storedFinal(target.id, id)).toBe(before);
    await saveScreenshot(page, 'portal-release-overtook-save-de-390');
    expect(portal.errors).toEqual([]);
  });

  it('409: the prompt sets the judge’s field against the stored value of that field, in German', async () => {
    const { id, entries } = (shared = await device(2));
    const target = entries[0]!;
    const portal = await open({ competitionId: kuer().id, disciplineId: id, lang: 'de' });
    const { page } = portal;
    await choose(page, target);
    const fieldId = Number(await page.getAttribute('#field-A', 'data-field-id'));
    const stored = asNumber(await page.inputValue('#field-A'));
    const mine = Math.round((stored + 0.2) * 1000) / 1000;
    const theirs = Math.round((stored + 0.1) * 1000) / 1000;
    await page.focus('#field-A');
    await page.keyboard.press('Control+A');
    await page.keyboard.type(String(mine).replace('.', ','));
    await page.keyboard.press('Tab');
    // Another judge's device stores a different A meanwhile.
    const other = await send('POST', '/api/jury-results', {
      participantId: target.id,
      disciplineFieldId: fieldId,
      performance: theirs,
      attempt: 1,
    });
    expect(other.status).toBe(200);
    await page.locator('.elsewhere-notice:not([hidden])').waitFor({ timeout: 10_000 });
    await page.focus('#save-button');
    await page.keyboard.press('Enter');
    const prompt = page.locator('.prompt[data-kind="conflict"]:not([hidden]) .prompt-message');
    await prompt.waitFor({ timeout: 10_000 });
    const text = (await prompt.textContent()) ?? '';
    const match =
      /^⚠ (.+?) von .+ wurde inzwischen anderswo geändert\. Gespeicherter Wert \1 jetzt: ([\d,]+)\. Ihr Wert \1: ([\d,]+)\./.exec(text);
    expect(match, text).not.toBeNull();
    // The field's name, as the judge reads it on the form.
    expect(match![1]).toBe(await page.locator('label[for="field-A"] .field-name').textContent());
    expect(asNumber(match![2]!)).toBeCloseTo(theirs, 3);
    expect(asNumber(match![3]!)).toBeCloseTo(mine, 3);
    expect(text).toContain(',');
    await saveScreenshot(page, 'portal-conflict-like-with-like-de-390');
    await page.locator('#conflict-keep').click();
    expect(portal.errors).toEqual([]);
  });

  it('an untouched form shows the values another device stored, without a notice', async () => {
    // The conflict's device, another participant: nothing is released there.
    const { id, entries } = shared!;
    const target = entries[1]!;
    const portal = await open({ competitionId: kuer().id, disciplineId: id, lang: 'en' });
    const { page } = portal;
    await choose(page, target);
    const fieldId = Number(await page.getAttribute('#field-A', 'data-field-id'));
    const next = Math.round((asNumber(await page.inputValue('#field-A')) + 0.3) * 1000) / 1000;
    const other = await send('POST', '/api/jury-results', {
      participantId: target.id,
      disciplineFieldId: fieldId,
      performance: next,
      attempt: 1,
    });
    expect(other.status).toBe(200);
    await waitFor(async () => Math.abs(asNumber(await page.inputValue('#field-A')) - next) < 1e-6, {
      message: 'the form shows the new value',
    });
    expect(await page.locator('.elsewhere-notice').isHidden()).toBe(true);
    expect(portal.errors).toEqual([]);
  });

  it('says in words that the office enters group and team scores, and offers no devices for them', async () => {
    for (const [kind, lang, words] of [
      ['group', 'de', ['Wettkampfbüro', 'Gruppenwertungen', 'Mannschaftswertungen']],
      ['team', 'en', ['competition office', 'Group scores', 'Team scores']],
    ] as const) {
      const competition = ofKind(kind);
      const portal = await open({ competitionId: competition.id, lang });
      const { page } = portal;
      const message = page.locator('.list-message', { hasText: competition.name });
      await message.waitFor({ timeout: 10_000 });
      for (const word of words) expect(await message.textContent()).toContain(word);
      expect(await page.locator('#device-select option').count()).toBe(0);
      expect(await page.locator('section.scoring').isHidden()).toBe(true);
      expect(await page.locator('.participant').count()).toBe(0);
      const selected = await page.locator('#competition-select option:checked').textContent();
      expect(selected).toContain(competition.name);
      expect(await noHorizontalOverflow(page)).toBe(true);
      await saveScreenshot(page, `portal-office-competition-${kind}-${lang}-390`);
      expect(portal.errors).toEqual([]);
    }
  });
});
