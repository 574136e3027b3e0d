import { h } from '../shared/dom.js';
import { t } from '../shared/i18n.js';
import { judgeCredential } from '../shared/judge-credential.js';
import { judgeName, setJudgeName } from '../shared/judge-name.js';

/** The header field that asks for the judge's name until one is given; kept in this browser. */
export function judgeNameControl(): HTMLElement {
  const input = h('input', {
    id: 'judge-name',
    name: 'judgeName',
    type: 'text',
    maxlength: 100,
    autocomplete: 'name',
    placeholder: t('jury.yourName'),
    value: judgeName() ?? '',
  });
  const wrapper = h(
    'div',
    { class: 'judge-name', 'data-missing': String(judgeName() === null) },
    h('label', { for: 'judge-name' }, t('jury.judge')),
    input,
  );
  input.addEventListener('change', () => {
    setJudgeName(input.value);
    input.value = judgeName() ?? '';
    wrapper.dataset.missing = String(judgeName() === null);
  });
  input.title = t('jury.judgeTitle');
  // A credential names the judge: the office issued it to this person.
  if (judgeCredential()?.name) input.readOnly = true;
  return wrapper;
}
