import type { AskUserQuestionAnswer, AskUserQuestionItem } from './schemas.js';

// Secrets in questions: a question is sensitive when its asker says so (`sensitive: true`) or when
// it plainly asks the person to type a secret (a password, an API key, a token…). Its answer still
// reaches the asker unchanged; what changes is that a UI masks the input and that logs and events
// carry `redactedAnswerText` instead of the typed value.

/** What logs and events carry instead of the typed value of a sensitive question. */
export const redactedAnswerText = '[redacted]';

// Words that name a secret on their own. Bare "token" and "key" are left out on purpose: "max
// tokens", "the sort key" are everyday questions; they count only in the compounds below.
const secretWords = [
  'passwords?',
  'passwd',
  'passphrases?',
  'pass phrases?',
  'passcodes?',
  'secrets?',
  'credentials?',
  'private keys?',
  'secret keys?',
  'access keys?',
  'api[ -]?keys?',
  'ssh keys?',
  'signing keys?',
  'encryption keys?',
  '(?:api|access|auth|authentication|bearer|refresh|session|oauth|personal access|github|gitlab|npm|slack|bot) tokens?',
  'tokens? (?:value|secret)',
  'pin (?:codes?|numbers?)',
  'one[ -]time (?:code|password|pin)s?',
  'otps?',
  '(?:2fa|mfa|totp|verification|recovery|backup|security) codes?',
  'seed phrases?',
  'recovery phrases?',
  'mnemonic(?: phrase)?s?',
  'cvv',
  'cvc',
  'card numbers?',
  'credit card',
];

// A secret word followed by one of these names a thing about secrets, not a secret to type:
// "secret manager", "credentials file", "password policy".
const notASecret = ['managers?', 'management', 'policy', 'policies', 'length', 'files?', 'paths?', 'stores?', 'vaults?', 'rotation', 'requirements?', 'rules?', 'strength', 'reset', 'expiry', 'names?'];

const englishSecret = new RegExp(`(?:^|[^a-z0-9])(?:${secretWords.join('|')})(?! (?:${notASecret.join('|')})(?:$|[^a-z0-9]))(?:$|[^a-z0-9])`);
// Chinese has no word breaks: these are matched anywhere in the text.
const chineseSecret = /密码|口令|密钥|秘钥|私钥|令牌|凭据|凭证|验证码|助记词|安全码|银行卡号|信用卡号|支付密码|访问码|授权码/;

/**
 * True when `text` (a question, a header, a field name such as `apiKey` or `db_password`) names a
 * secret, in English or Chinese. camelCase and snake_case names are split into words first.
 */
export function namesSecret(text: string): boolean {
  const words = text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_\-.:/]+/g, ' ')
    .toLowerCase();
  // "PIN" only in capitals: "which version should we pin?" is not a secret.
  return englishSecret.test(words) || /(?:^|[^A-Za-z])PINs?(?:$|[^A-Za-z])/.test(text) || chineseSecret.test(text);
}

/**
 * Whether a question's answer is a secret: marked `sensitive: true`, or a question answered by
 * typing (free text, a text or textarea input) whose wording names a secret (a number only when flagged). A choice
 * ("Rotate the API key now?") or a checkbox is never one: its values are the options, not secrets.
 */
export function isSensitiveQuestion(question: AskUserQuestionItem): boolean {
  if (question.sensitive === true) return true;
  if (!takesTypedText(question)) return false;
  return [question.id, question.header, question.question, question.placeholder].some((text) => text !== undefined && namesSecret(text));
}

// A number counts only when flagged: "Minimum password length?" asks for no secret.
function takesTypedText(question: AskUserQuestionItem): boolean {
  const kind = question.input?.kind;
  if (kind === undefined) return (question.options?.length ?? 0) === 0;
  return kind === 'text' || kind === 'textarea';
}

/**
 * A copy of `answer` fit for a log: the typed text of each sensitive question replaced by
 * `redactedAnswerText` (a skip stays a skip, so the log still tells answered from skipped). The
 * same object when no question is sensitive.
 */
export function redactSensitiveAnswers(questions: readonly AskUserQuestionItem[], answer: AskUserQuestionAnswer): AskUserQuestionAnswer {
  const sensitive = new Set(questions.filter(isSensitiveQuestion).map((question) => question.id));
  if (sensitive.size === 0) return answer;
  return {
    answers: answer.answers.map((item) =>
      sensitive.has(item.id) && item.custom !== undefined ? { id: item.id, selected: [...item.selected], custom: redactedAnswerText } : item,
    ),
  };
}
