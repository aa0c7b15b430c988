import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { t } from '../messages.ts';
import { ended, finishEnrolment, signIn, type Enrolment } from '../session.ts';
import { useValue } from '../store.ts';
import { LanguageSwitch } from '../ui/LanguageSwitch.tsx';
import { Field, messageOf } from '../ui/ui.tsx';
import { QrCode } from './QrCode.tsx';

/**
 * Sign-in: e-mail, password and the authenticator's code. An account that has no authenticator yet gets its
 * enrolment instead (the QR code and the key to type), and one code from the new authenticator finishes it.
 */
export function SignIn() {
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const reason = useValue(ended);
  // after every render: the title follows a change of language too
  useEffect(() => {
    document.title = `${t.signIn} · ${t.product}`;
  });
  return (
    <main class="signin" id="main">
      <div class="signin-card">
        <div class="signin-top">
          <p class="brand" aria-hidden="true">
            {t.product}
          </p>
          <LanguageSwitch />
        </div>
        {reason && reason !== 'signed_out' && (
          <p class="notice" role="status">
            {t.sessionEnded[reason]}
          </p>
        )}
        {reason === 'signed_out' && (
          <p class="notice" role="status">
            {t.signedOut}
          </p>
        )}
        {enrolment ? <Enrol enrolment={enrolment} /> : <Credentials onEnrol={setEnrolment} />}
      </div>
    </main>
  );
}

function Credentials(props: { onEnrol: (enrolment: Enrolment) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await signIn({ email: email.trim(), password, ...(code ? { totp: code.trim() } : {}) });
      if (!answer.signedIn) props.onEnrol(answer.enrolment);
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 'invalid_credentials' ? t.wrongCredentials : messageOf(failure),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="form" onSubmit={(event) => void submit(event)} aria-describedby={error ? 'signin-error' : undefined}>
      <h1 ref={heading} tabIndex={-1}>
        {t.signInTitle}
      </h1>
      {error && (
        <p class="form-error" id="signin-error" role="alert">
          {error}
        </p>
      )}
      <Field label={t.email}>
        {({ id }) => (
          <input
            id={id}
            type="email"
            autoComplete="username"
            required
            maxLength={254}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field label={t.password}>
        {({ id }) => (
          <input
            id={id}
            type="password"
            autoComplete="current-password"
            required
            maxLength={256}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        )}
      </Field>
      <CodeField label={t.code} hint={t.codeHint} value={code} onInput={setCode} />
      <button class="button button-primary" type="submit" disabled={busy}>
        {busy ? t.signingIn : t.signIn}
      </button>
    </form>
  );
}

function Enrol(props: { enrolment: Enrolment }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const key = props.enrolment.secret.replace(/(.{4})/g, '$1 ').trim();

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await finishEnrolment({ enrolmentToken: props.enrolment.enrolmentToken, totp: code.trim() });
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.code === 'invalid_credentials'
          ? t.wrongEnrolmentCode
          : messageOf(failure),
      );
      setBusy(false);
    }
  }

  return (
    <form class="form" onSubmit={(event) => void submit(event)}>
      <h1 ref={heading} tabIndex={-1}>
        {t.enrolTitle}
      </h1>
      <p>{t.enrolIntro}</p>
      <QrCode text={props.enrolment.otpauthUrl} label={t.enrolQrLabel} />
      <p>
        {t.enrolManual} <code class="key">{key}</code>
      </p>
      {error && (
        <p class="form-error" role="alert">
          {error}
        </p>
      )}
      <CodeField label={t.enrolCode} hint={t.enrolCodeHint} value={code} onInput={setCode} required />
      <button class="button button-primary" type="submit" disabled={busy}>
        {t.enrolFinish}
      </button>
    </form>
  );
}

/** The authenticator's 6 digits, as phones fill them in from an app. */
function CodeField(props: {
  label: string;
  hint: string;
  value: string;
  onInput: (value: string) => void;
  required?: boolean;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required={props.required}
          value={props.value}
          onInput={(e) => props.onInput(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}
