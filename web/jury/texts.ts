/**
 * The jury portal's texts about released scopes, gymnasts who did not start, the office's
 * competitions and others' alerts.
 */
import { translator } from '../shared/i18n.js';

const EN = {
  releasedBadge: 'Released',
  releasedForm:
    'The head judge has released this device. The stored values are final here; to change one, ask the head judge to reopen it.',
  releasedRefused:
    '✗ Not saved: {name} — the head judge released this device meanwhile. The stored value {stored} stands; to change it, ask the head judge to reopen the device.',
  didNotStart: 'Did not start',
  didNotStartForm:
    'The competition office marked this gymnast as not started: there is nothing to enter. Values stored before stay as they are.',
  officeOnly:
    '{competition} is a group or team competition: its scores are entered in the competition office, on the page “{groups}” or “{teams}”, not in the jury portal.',
  officeOnlyOption: '{name} (entered in the office)',
  otherDeviations1: '⚠ 1 deviation in the panel is open; the head judge resolves it.',
  otherDeviations: '⚠ {count} deviations in the panel are open; the head judge resolves them.',
} as const;

const DE: { readonly [K in keyof typeof EN]: string } = {
  releasedBadge: 'Freigegeben',
  releasedForm:
    'Der Oberkampfrichter hat dieses Gerät freigegeben. Die gespeicherten Werte gelten; für eine Änderung muss er es wieder öffnen.',
  releasedRefused:
    '✗ Nicht gespeichert: {name} — der Oberkampfrichter hat dieses Gerät inzwischen freigegeben. Der gespeicherte Wert {stored} gilt; für eine Änderung muss er das Gerät wieder öffnen.',
  didNotStart: 'Nicht angetreten',
  didNotStartForm:
    'Das Wettkampfbüro hat diese Person als nicht angetreten gemeldet: Hier ist nichts einzugeben. Zuvor gespeicherte Werte bleiben, wie sie sind.',
  officeOnly:
    '{competition} ist ein Gruppen- oder Mannschaftswettkampf: Seine Wertungen gibt das Wettkampfbüro ein, auf der Seite „{groups}“ oder „{teams}“, nicht das Kampfrichterportal.',
  officeOnlyOption: '{name} (Eingabe im Büro)',
  otherDeviations1: '⚠ 1 Abweichung im Kampfgericht ist offen; der Oberkampfrichter klärt sie.',
  otherDeviations: '⚠ {count} Abweichungen im Kampfgericht sind offen; der Oberkampfrichter klärt sie.',
};

export const jt = translator(EN, DE);
