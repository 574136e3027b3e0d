/**
 * The group members page in Chromium against the real service (spec "Group candidates"): every
 * combination of the two filters, the reset action visible only while a filter is on, a fetch on
 * each change of filter, group and event, and members removed from the candidates on the client.
 */
import type { Browser, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { PHONE, launchBrowser, openPage, saveScreenshot, type OpenedPage } from './support/browser.js';
import { officeUrl, seedGroupEvent, type GroupEvent } from './support/office.js';
import { noHorizontalOverflow } from './support/portal.js';

let server: TestServer;
let browser: Browser;
let event: GroupEvent;
let office: OpenedPage;
/** Query strings of every candidate request the page made, oldest first. */
const asked: Array<Record<string, string>> = [];

const page = () => office.page;

function recordCandidateRequest(request: Request): void {
  const url = new URL(request.url());
  if (url.pathname === '/api/groups/available-participants') asked.push(Object.fromEntries(url.searchParams));
}

/** Waits for the answer to the request with exactly these filters, then reads the list as shown. */
async function candidatesAfter(change: () => Promise<void>, expected: Record<string, string>): Promise<number[]> {
  const before = asked.length;
  const answered = page().waitForResponse((response) => {
    const url = new URL(response.url());
    return (
      url.pathname === '/api/groups/available-participants' &&
      Object.entries(expected).every(([name, value]) => url.searchParams.get(name) === value)
    );
  });
  await change();
  await answered;
  await page().locator('#candidates:not([aria-busy])').waitFor();
  expect(asked.length).toBeGreaterThan(before);
  expect(asked.at(-1)).toMatchObject(expected);
  return shownCandidates();
}

function shownCandidates(): Promise<number[]> {
  return page().$$eval('#candidates tbody tr', (rows) => rows.map((row) => Number(row.getAttribute('data-candidate-id'))));
}

const resetVisible = () => page().isVisible('#reset-filters');

beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  event = await seedGroupEvent(server.pool);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('office: group members and candidates', () => {
  it('lists the group-type participants of the event for the first group, without filters and without a reset action', async () => {
    // Listening before the page loads, so the first fetch is recorded too.
    office = await openPage(browser, 'about:blank');
    office.page.on('request', recordCandidateRequest);
    const answered = office.page.waitForResponse((response) => response.url().includes('/api/groups/available-participants'));
    await office.page.goto(officeUrl(server.url, 'groups', { eventId: event.eventId }));
    await answered;
    await page().locator('#candidates tbody tr').first().waitFor();
    const { A1, A2, B1, B2 } = event.people;
    // Ordered by last name: Alpha-A1, Beta-A2, Delta-B2, Gamma-B1.
    expect(await shownCandidates()).toEqual([A1, A2, B2, B1]);
    expect(asked.at(-1)).toEqual({
      eventId: String(event.eventId),
      clubId: String(event.clubA),
      groupId: String(event.groupA),
      hidePlanned: 'false',
      hideOtherClubs: 'false',
    });
    expect(await page().inputValue('#group-select')).toBe(String(event.groupA));
    expect(await resetVisible()).toBe(false);
    await saveScreenshot(page(), 'office-groups');
  });

  it('fetches again for each filter combination; the reset action shows only while a filter is on', async () => {
    const { A1, A2, B1, B2 } = event.people;
    // Space on the focused checkbox, as with a keyboard only.
    await page().focus('#hide-planned');
    expect(await candidatesAfter(() => page().keyboard.press('Space'), { hidePlanned: 'true', hideOtherClubs: 'false' })).toEqual([A2, B2]);
    expect(await resetVisible()).toBe(true);

    expect(
      await candidatesAfter(() => page().check('#hide-other-clubs'), {
        hidePlanned: 'true',
        hideOtherClubs: 'true',
        clubId: String(event.clubA),
      }),
    ).toEqual([A2]);
    expect(await resetVisible()).toBe(true);
    await saveScreenshot(page(), 'office-groups-filtered');

    expect(await candidatesAfter(() => page().uncheck('#hide-planned'), { hidePlanned: 'false', hideOtherClubs: 'true' })).toEqual([
      A1,
      A2,
    ]);
    expect(await resetVisible()).toBe(true);

    expect(await candidatesAfter(() => page().uncheck('#hide-other-clubs'), { hidePlanned: 'false', hideOtherClubs: 'false' })).toEqual([
      A1,
      A2,
      B2,
      B1,
    ]);
    expect(await resetVisible()).toBe(false);

    await page().check('#hide-planned');
    await page().locator('#reset-filters').waitFor();
    expect(await candidatesAfter(() => page().check('#hide-other-clubs'), { hidePlanned: 'true', hideOtherClubs: 'true' })).toEqual([A2]);
    expect(await candidatesAfter(() => page().click('#reset-filters'), { hidePlanned: 'false', hideOtherClubs: 'false' })).toEqual([
      A1,
      A2,
      B2,
      B1,
    ]);
    expect(await page().isChecked('#hide-planned')).toBe(false);
    expect(await page().isChecked('#hide-other-clubs')).toBe(false);
    expect(await resetVisible()).toBe(false);
    // Focus stays in the filters after the reset button disappears.
    expect(await page().evaluate(() => document.activeElement?.id)).toBe('hide-planned');
  });

  it('removes members already in the group on the client, also after a fetch and a reload', async () => {
    const { A1, A2, B1, B2 } = event.people;
    const before = asked.length;
    await page().click(`button[data-add="${A2}"]`);
    await page().locator(`#members li[data-member-id="${A2}"]`).waitFor();
    expect(await shownCandidates()).toEqual([A1, B2, B1]);
    // Membership is applied on the client: adding asks the server nothing.
    expect(asked.length).toBe(before);

    await candidatesAfter(() => page().check('#hide-planned'), { hidePlanned: 'true' });
    expect(await shownCandidates()).toEqual([B2]);
    expect(await page().textContent('#candidates-message')).toBe('1 candidate (1 already in the group not shown).');

    await page().reload();
    await page().locator(`#members li[data-member-id="${A2}"]`).waitFor();
    await page().locator('#candidates tbody tr').first().waitFor();
    expect(await shownCandidates()).toEqual([A1, B2, B1]);

    await page().click(`button[data-remove="${A2}"]`);
    expect(await shownCandidates()).toEqual([A1, A2, B2, B1]);
    expect(await page().locator('#members li').count()).toBe(0);
  });

  it('fetches again when the group changes, with the club of that group', async () => {
    const { A2, B1, B2 } = event.people;
    await page().click(`button[data-add="${A2}"]`);
    const shown = await candidatesAfter(
      () =>
        page()
          .selectOption('#group-select', String(event.groupB))
          .then(() => undefined),
      {
        groupId: String(event.groupB),
        clubId: String(event.clubB),
      },
    );
    // A2 is a member of the other group only.
    expect(shown).toContain(A2);
    expect(
      await candidatesAfter(() => page().check('#hide-other-clubs'), { groupId: String(event.groupB), hideOtherClubs: 'true' }),
    ).toEqual([B2, B1]);
    expect(await page().textContent('#club-hint')).toBe('(only SC Berg)');
  });

  it('fetches again when the event changes', async () => {
    const shown = await candidatesAfter(
      () =>
        page()
          .selectOption('#event-select', String(event.otherEventId))
          .then(() => undefined),
      {
        eventId: String(event.otherEventId),
        groupId: String(event.otherEventGroup),
        hidePlanned: 'false',
        hideOtherClubs: 'false',
      },
    );
    expect(shown).toEqual([event.people.otherEvent]);
    expect(await resetVisible()).toBe(false);
    expect(office.errors).toEqual([]);
  });

  it('fits a phone screen', async () => {
    const phone = await openPage(browser, officeUrl(server.url, 'groups', { eventId: event.eventId }), PHONE);
    await phone.page.locator('#candidates tbody tr').first().waitFor();
    await phone.page.check('#hide-planned');
    await phone.page.locator('#reset-filters').waitFor();
    expect(await noHorizontalOverflow(phone.page)).toBe(true);
    await saveScreenshot(phone.page, 'office-groups-phone');
    await phone.context.close();
  });
});
