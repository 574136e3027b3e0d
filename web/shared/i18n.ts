/**
 * German and English for every page (issue 17, point 9). The language comes from `?lang=`, else
 * the choice stored by the switch, else the browser's preferred languages (German when any of them
 * is German, else English). Numbers use the language's one decimal separator.
 */
import { h } from './dom.js';

export type Lang = 'de' | 'en';

const STORAGE_KEY = 'gym.lang.v1';

const EN = {
  'lang.switch': 'Deutsch',
  'lang.switchTitle': 'Auf Deutsch umschalten',
  'common.event': 'Event',
  'common.competition': 'Competition',
  'common.device': 'Device',
  'common.squad': 'Squad',
  'common.allSquads': 'All squads',
  'common.cancel': 'Cancel',
  'common.connecting': '◌ Connecting…',
  'common.invalidValue': '{typed} is not a valid value (expected e.g. {example})',
  'common.noOfflineReload':
    'Offline reload is not available at this address (plain http): saves still wait on this device, but do not reload this page while the server is down. Open it over https or on the server itself for offline reload.',
  'common.noEvents':
    'The database holds no event yet. Create one in the desktop program, or try the demo with `npm run seed:demo`, then reload this page.',
  'jury.title': 'Jury portal',
  'jury.judge': 'Judge',
  'jury.yourName': 'Your name',
  'jury.judgeTitle': 'Recorded with every score you save (head judge console)',
  'jury.participants': 'Participants',
  'jury.live': '● Live',
  'jury.offline': '○ Offline',
  'jury.liveWaiting': '● Live · saves waiting',
  'jury.waitingBanner1': '1 save is waiting for the server. It is kept on this device and sent as soon as the server is reachable again.',
  'jury.waitingBanner':
    '{count} saves are waiting for the server. They are kept on this device and sent in order as soon as the server is reachable again.',
  'jury.loadFailed': 'Could not load events and devices: {error}. Reload the page when the server is reachable.',
  'jury.loadingParticipants': 'Loading participants…',
  'jury.participantsFailed': 'Could not load the participants: {error}. They load again as soon as the server is back.',
  'jury.noParticipants': 'No participants of this competition on this device yet.',
  'jury.noCompetitions': 'This event has no competition with individual participants yet.',
  'jury.fieldsFailed': 'Could not load the fields of this device: {error}',
  'jury.scoring': 'Scoring',
  'jury.choose': 'Choose a participant to enter the scores.',
  'jury.finalScore': 'Final score',
  'jury.formula': 'Formula: {formula}',
  'jury.singleValue': 'Single-value scoring (useJuryResults is off): type the final score.',
  'jury.noFormula': 'No formula: type the final score.',
  'jury.badFormula': 'Formula {formula} cannot be used: type the final score.',
  'jury.save': 'Save',
  'jury.needsValue': 'Field {field} needs a value (e.g. {example}).',
  'jury.finalNeedsValue': 'The final score needs a value (e.g. {example}).',
  'jury.formulaNoScore': 'The formula {formula} gives no score for these values; nothing was saved.',
  'jury.saving': 'Saving {name} — {score}…',
  'jury.saved': '✓ Saved: {name} — {score} (confirmed by the server at {time})',
  'jury.refused': '✗ Not saved: {name} — the server refused it ({status}): {error}',
  'jury.waiting': '◷ Waiting: {name} is kept on this device and sent when the server is back.',
  'jury.loadValuesFailed': 'Could not load the saved values: {error}',
  'jury.status.pending': 'pending',
  'jury.status.waiting': 'waiting',
  'jury.status.error': 'not saved',
  'jury.status.completed': 'completed',
  'jury.unnamed': 'Unnamed participant',
  'jury.changedElsewhere':
    '⚠ Changed elsewhere: the stored final score is now {score} (your form was based on {base}). Your inputs are untouched; saving asks before it overwrites.',
  'jury.conflict':
    '⚠ The final score of {name} was changed elsewhere meanwhile. Stored final score now: {current}. Your final score: {mine}. Nothing of yours was saved over it.',
  'jury.conflictField':
    '⚠ {field} of {name} was changed elsewhere meanwhile. Stored {field} now: {current}. Your {field}: {mine}. Nothing of yours was saved over it.',
  'jury.conflictOverwrite': 'Overwrite with my values',
  'jury.conflictKeep': 'Keep the stored value',
  'jury.keptStored': 'Kept the stored value {current}; the form shows the stored values again.',
  'jury.refuseNegative': '{field}: {value} is negative; this field cannot be negative. Nothing was saved.',
  'jury.implausible': 'Please check: {list}. Save anyway?',
  'jury.implausibleItem': '{field} = {value} (usual {min}–{max})',
  'jury.saveAnyway': 'Save anyway',
  'jury.correct': 'Correct it',
  'jury.judgeField': 'Your field: {field}',
  'jury.judgeFieldMissing':
    'Field {field} of your link is not a field of this device. Choose the device your link was made for, or ask the office for your link.',
  'jury.judgeAllDone': 'Every participant of this selection has your value. Choose one in the list below to correct a value.',
  'jury.yourValue': 'yours: {value}',
  'jury.provisional': '{score} · provisional',
  'panel.title': 'E-panel',
  'panel.aggregate': 'Aggregate',
  'panel.provisional': 'provisional: {count} of {size} judges',
  'panel.complete': 'complete',
  'panel.spread': 'spread {spread}, tolerance {tolerance}',
  'panel.confirmed': 'confirmed by the head judge',
  'panel.deviationTitle': 'Panel deviations',
  'panel.deviation': '⚠ {name} · {device}: spread {spread} exceeds the tolerance {tolerance}',
  'panel.confirm': 'Confirm values',
  'panel.confirming': 'Confirming…',
  'panel.confirmFailed': 'Could not confirm: {error}',
  'panel.noDeviations': 'No open panel deviations.',
  'panel.needsHead': 'Confirming values needs a head judge or admin token (npm run token -- --sub NAME --role head).',
  'panel.loadFailed': 'Could not load the open panel deviations: {error}',
  'panel.show': 'Show',
  'panel.aggregation.trimmed-mean': 'trimmed mean (without highest and lowest)',
  'panel.aggregation.mean': 'mean',
  'panel.aggregation.median': 'median',
  'panel.given': 'complete: {count} of {size} judges',
  'panel.missingFewer': '{judges} not there: counted with the values given',
  'panel.missingMean': '{judges} not there: the mean of the given values, {value}, in their place',
  'panel.reference': 'Reference judges {values}: reference score {mean}',
  'panel.referenceApplied': 'panel {panel} differs by {difference}, more than the tolerance {tolerance}: E = mean {aggregate}',
  'panel.referenceWithin': 'panel {panel} within the tolerance {tolerance}: E unchanged',
  'panel.referenceDisagree': 'the reference judges disagree beyond the range: not counted',
  'office.panels': 'E-panels',
  'office.board': 'Scoreboard',
  'office.rotations': 'Rotations',
  'office.credentials': 'Judge codes',
  'office.sheets': 'Judge sheets',
  'board.title': 'Scoreboard',
  'board.rank': 'Rank',
  'board.name': 'Name',
  'board.club': 'Club',
  'board.squad': 'Squad',
  'board.score': 'Score',
  'board.time': 'Time',
  'board.show': 'Show',
  'board.provisional': 'provisional',
  'board.provisionalLegend': '* provisional: not yet released by the head judge',
  'board.noScores': 'No scores yet.',
  'board.live': '● LIVE',
  'board.notLive': '○ NOT LIVE — reconnecting…',
  'board.loadFailed': 'Could not load the results: {error}. Retrying…',
  'board.lastUpdate': 'Last update {time}',
  'build.details': '{label} build\nHash: {hash}\nBranch: {branch}\nBuilt: {date}',
  'build.asking': 'Asking the backend for its version…',
  'build.unavailable': 'Backend version unavailable',
  'build.failed': 'GET /api/system/version failed: {error}',
  'build.versions': 'Build versions',
  'board.page': 'Page {page} of {pages}',
  'board.allCompetitions': 'All competitions',
  'board.loadingPickers': 'Loading events and devices…',
  'board.oc': 'o.c.',
  'board.allAround': 'All-around',
  'board.total': 'Total',
  'board.ageClass': 'Age class {range}',
  'board.ageOther': 'Other ages',
  'board.ageUnknown': 'Age unknown',
  'office.title': 'Competition office',
  'office.squads': 'Squads',
  'office.groups': 'Group members',
  'office.groupScores': 'Group scores',
  'office.teams': 'Team scores',
  'office.network': 'Network access',
  'office.results': 'Results',
  'office.console': 'Head judge',
} as const;

export type MessageKey = keyof typeof EN;

const DE: Record<MessageKey, string> = {
  'lang.switch': 'English',
  'lang.switchTitle': 'Switch to English',
  'common.event': 'Veranstaltung',
  'common.competition': 'Wettkampf',
  'common.device': 'Gerät',
  'common.squad': 'Riege',
  'common.allSquads': 'Alle Riegen',
  'common.cancel': 'Abbrechen',
  'common.connecting': '◌ Verbinde…',
  'common.invalidValue': '{typed} ist kein gültiger Wert (erwartet z. B. {example})',
  'common.noOfflineReload':
    'Neu laden ohne Server ist unter dieser Adresse (einfaches http) nicht möglich: Speicherungen warten weiter auf diesem Gerät, aber laden Sie die Seite nicht neu, solange der Server nicht erreichbar ist. Für Neuladen ohne Server die Seite über https oder auf dem Server selbst öffnen.',
  'common.noEvents':
    'Die Datenbank enthält noch keine Veranstaltung. Legen Sie eine im Desktop-Programm an oder probieren Sie die Demo mit `npm run seed:demo`, dann laden Sie diese Seite neu.',
  'jury.title': 'Kampfrichter-Portal',
  'jury.judge': 'Kampfrichter/in',
  'jury.yourName': 'Ihr Name',
  'jury.judgeTitle': 'Wird mit jeder gespeicherten Wertung festgehalten (Oberkampfrichter-Konsole)',
  'jury.participants': 'Teilnehmende',
  'jury.live': '● Live',
  'jury.offline': '○ Offline',
  'jury.liveWaiting': '● Live · Speicherungen warten',
  'jury.waitingBanner1':
    '1 Speicherung wartet auf den Server. Sie bleibt auf diesem Gerät und wird gesendet, sobald der Server wieder erreichbar ist.',
  'jury.waitingBanner':
    '{count} Speicherungen warten auf den Server. Sie bleiben auf diesem Gerät und werden der Reihe nach gesendet, sobald der Server wieder erreichbar ist.',
  'jury.loadFailed':
    'Veranstaltungen und Geräte konnten nicht geladen werden: {error}. Laden Sie die Seite neu, wenn der Server erreichbar ist.',
  'jury.loadingParticipants': 'Teilnehmende werden geladen…',
  'jury.participantsFailed':
    'Die Teilnehmenden konnten nicht geladen werden: {error}. Sie werden neu geladen, sobald der Server wieder da ist.',
  'jury.noParticipants': 'Noch keine Teilnehmenden dieses Wettkampfs an diesem Gerät.',
  'jury.noCompetitions': 'Diese Veranstaltung hat noch keinen Wettkampf mit Einzelstartenden.',
  'jury.fieldsFailed': 'Die Felder dieses Geräts konnten nicht geladen werden: {error}',
  'jury.scoring': 'Wertung',
  'jury.choose': 'Wählen Sie eine teilnehmende Person, um die Wertung einzugeben.',
  'jury.finalScore': 'Endwert',
  'jury.formula': 'Formel: {formula}',
  'jury.singleValue': 'Einzelwert-Erfassung (useJuryResults ist aus): Endwert eingeben.',
  'jury.noFormula': 'Keine Formel: Endwert eingeben.',
  'jury.badFormula': 'Formel {formula} ist nicht verwendbar: Endwert eingeben.',
  'jury.save': 'Speichern',
  'jury.needsValue': 'Feld {field} braucht einen Wert (z. B. {example}).',
  'jury.finalNeedsValue': 'Der Endwert braucht einen Wert (z. B. {example}).',
  'jury.formulaNoScore': 'Die Formel {formula} ergibt für diese Werte keine Wertung; nichts wurde gespeichert.',
  'jury.saving': 'Speichere {name} — {score}…',
  'jury.saved': '✓ Gespeichert: {name} — {score} (vom Server bestätigt um {time})',
  'jury.refused': '✗ Nicht gespeichert: {name} — der Server hat abgelehnt ({status}): {error}',
  'jury.waiting': '◷ Wartet: {name} bleibt auf diesem Gerät und wird gesendet, sobald der Server wieder da ist.',
  'jury.loadValuesFailed': 'Die gespeicherten Werte konnten nicht geladen werden: {error}',
  'jury.status.pending': 'offen',
  'jury.status.waiting': 'wartet',
  'jury.status.error': 'nicht gespeichert',
  'jury.status.completed': 'erfasst',
  'jury.unnamed': 'Ohne Namen',
  'jury.changedElsewhere':
    '⚠ Anderswo geändert: Der gespeicherte Endwert ist jetzt {score} (Ihr Formular beruht auf {base}). Ihre Eingaben bleiben unverändert; beim Speichern wird vor dem Überschreiben gefragt.',
  'jury.conflict':
    '⚠ Der Endwert von {name} wurde inzwischen anderswo geändert. Gespeicherter Endwert jetzt: {current}. Ihr Endwert: {mine}. Nichts von Ihnen wurde darüber gespeichert.',
  'jury.conflictField':
    '⚠ {field} von {name} wurde inzwischen anderswo geändert. Gespeicherter Wert {field} jetzt: {current}. Ihr Wert {field}: {mine}. Nichts von Ihnen wurde darüber gespeichert.',
  'jury.conflictOverwrite': 'Mit meinen Werten überschreiben',
  'jury.conflictKeep': 'Gespeicherten Wert behalten',
  'jury.keptStored': 'Gespeicherter Wert {current} behalten; das Formular zeigt wieder die gespeicherten Werte.',
  'jury.refuseNegative': '{field}: {value} ist negativ; dieses Feld kann nicht negativ sein. Nichts wurde gespeichert.',
  'jury.implausible': 'Bitte prüfen: {list}. Trotzdem speichern?',
  'jury.implausibleItem': '{field} = {value} (üblich {min}–{max})',
  'jury.saveAnyway': 'Trotzdem speichern',
  'jury.correct': 'Korrigieren',
  'jury.judgeField': 'Ihr Feld: {field}',
  'jury.judgeFieldMissing':
    'Feld {field} aus Ihrem Link gehört nicht zu diesem Gerät. Wählen Sie das Gerät, für das Ihr Link gedacht ist, oder fragen Sie das Wettkampfbüro nach Ihrem Link.',
  'jury.judgeAllDone': 'Alle Teilnehmenden dieser Auswahl haben Ihren Wert. Zum Korrigieren eine Person in der Liste unten wählen.',
  'jury.yourValue': 'Ihr Wert: {value}',
  'jury.provisional': '{score} · vorläufig',
  'panel.title': 'E-Kampfgericht',
  'panel.aggregate': 'Ergebnis',
  'panel.provisional': 'vorläufig: {count} von {size} Kampfrichtern',
  'panel.complete': 'vollständig',
  'panel.spread': 'Spannweite {spread}, Toleranz {tolerance}',
  'panel.confirmed': 'vom Oberkampfrichter bestätigt',
  'panel.deviationTitle': 'Abweichungen im Kampfgericht',
  'panel.deviation': '⚠ {name} · {device}: Spannweite {spread} über der Toleranz {tolerance}',
  'panel.confirm': 'Werte bestätigen',
  'panel.confirming': 'Bestätige…',
  'panel.confirmFailed': 'Bestätigen fehlgeschlagen: {error}',
  'panel.noDeviations': 'Keine offenen Abweichungen.',
  'panel.needsHead': 'Zum Bestätigen braucht es ein Token als Oberkampfrichter oder Admin (npm run token -- --sub NAME --role head).',
  'panel.loadFailed': 'Die offenen Abweichungen konnten nicht geladen werden: {error}',
  'panel.show': 'Anzeigen',
  'panel.aggregation.trimmed-mean': 'gekürzter Mittelwert (ohne höchsten und niedrigsten)',
  'panel.aggregation.mean': 'Mittelwert',
  'panel.aggregation.median': 'Median',
  'panel.given': 'vollständig: {count} von {size} Kampfrichtern',
  'panel.missingFewer': '{judges} nicht da: gewertet mit den gegebenen Werten',
  'panel.missingMean': '{judges} nicht da: an ihrer Stelle der Mittelwert der gegebenen Werte, {value}',
  'panel.reference': 'Referenzkampfrichter {values}: Referenzwert {mean}',
  'panel.referenceApplied': 'Kampfgericht {panel} weicht um {difference} ab, mehr als die Toleranz {tolerance}: E = Mittelwert {aggregate}',
  'panel.referenceWithin': 'Kampfgericht {panel} innerhalb der Toleranz {tolerance}: E unverändert',
  'panel.referenceDisagree': 'die Referenzkampfrichter weichen über die Spanne hinaus voneinander ab: nicht gewertet',
  'office.panels': 'E-Kampfgerichte',
  'office.board': 'Anzeigetafel',
  'office.rotations': 'Durchgänge',
  'office.credentials': 'Kampfrichter-Codes',
  'office.sheets': 'Kampfrichterbögen',
  'board.title': 'Anzeigetafel',
  'board.rank': 'Platz',
  'board.name': 'Name',
  'board.club': 'Verein',
  'board.squad': 'Riege',
  'board.score': 'Wertung',
  'board.time': 'Zeit',
  'board.show': 'Anzeigen',
  'board.provisional': 'vorläufig',
  'board.provisionalLegend': '* vorläufig: noch nicht vom Oberkampfrichter freigegeben',
  'board.noScores': 'Noch keine Wertungen.',
  'board.live': '● LIVE',
  'board.notLive': '○ NICHT LIVE — verbinde neu…',
  'board.loadFailed': 'Die Ergebnisse konnten nicht geladen werden: {error}. Neuer Versuch…',
  'board.lastUpdate': 'Letzte Änderung {time}',
  'build.details': '{label}-Build\nHash: {hash}\nZweig: {branch}\nErstellt: {date}',
  'build.asking': 'Frage das Backend nach seiner Version…',
  'build.unavailable': 'Backend-Version nicht verfügbar',
  'build.failed': 'GET /api/system/version fehlgeschlagen: {error}',
  'build.versions': 'Build-Versionen',
  'board.page': 'Seite {page} von {pages}',
  'board.allCompetitions': 'Alle Wettkämpfe',
  'board.loadingPickers': 'Veranstaltungen und Geräte werden geladen…',
  'board.oc': 'a. K.',
  'board.allAround': 'Mehrkampf',
  'board.total': 'Gesamt',
  'board.ageClass': 'Altersklasse {range}',
  'board.ageOther': 'Andere Altersklassen',
  'board.ageUnknown': 'Alter unbekannt',
  'office.title': 'Wettkampfbüro',
  'office.squads': 'Riegen',
  'office.groups': 'Gruppenmitglieder',
  'office.groupScores': 'Gruppenwertungen',
  'office.teams': 'Mannschaftswertungen',
  'office.network': 'Netzwerkzugriff',
  'office.results': 'Ergebnisse',
  'office.console': 'Oberkampfrichter',
};

function detect(): Lang {
  const fromQuery = new URLSearchParams(window.location.search).get('lang');
  if (fromQuery === 'de' || fromQuery === 'en') return fromQuery;
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (stored === 'de' || stored === 'en') return stored;
  } catch {
    // Storage may be off; the browser's languages decide.
  }
  const preferred = navigator.languages?.length ? navigator.languages : [navigator.language];
  return preferred.some((language) => /^de\b/i.test(language ?? '')) ? 'de' : 'en';
}

export const lang: Lang = detect();
document.documentElement.lang = lang;

export type MessageParams = Record<string, string | number>;

function fill(text: string, params: MessageParams): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

export function t(key: MessageKey, params: MessageParams = {}): string {
  return fill((lang === 'de' ? DE : EN)[key] ?? EN[key], params);
}

/**
 * A page's own texts beside the shared ones: English and a German entry for every English key
 * (the type refuses a missing translation), read in the page's language.
 */
export function translator<const E extends Record<string, string>>(en: E, de: { readonly [K in keyof E]: string }) {
  return (key: keyof E & string, params: MessageParams = {}): string => fill((lang === 'de' ? de[key] : en[key]) as string, params);
}

/** A time of day in the page's language (24-hour clock in German). */
export const timeOfDay = (date: Date = new Date()): string => date.toLocaleTimeString(lang);

/** The language's one decimal separator. */
export const decimalSeparator = lang === 'de' ? ',' : '.';

/** A button that switches to the other language and reloads (the choice is kept for next time). */
export function languageSwitch(): HTMLElement {
  const button = h(
    'button',
    { type: 'button', class: 'lang-switch', lang: lang === 'de' ? 'en' : 'de', title: t('lang.switchTitle'), 'data-lang': lang },
    t('lang.switch'),
  );
  button.addEventListener('click', () => {
    const next: Lang = lang === 'de' ? 'en' : 'de';
    try {
      localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // Without storage the query parameter carries the choice.
    }
    const url = new URL(window.location.href);
    url.searchParams.set('lang', next);
    window.location.assign(url);
  });
  return button;
}
