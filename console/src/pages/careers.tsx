/**
 * The careers site's settings (admins): the name its pages show, an https logo URL and the link
 * to the workspace's privacy notice. Each change is audited; an empty field clears the setting.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { Loaded, Notice, PageTitle, useLoad, useSave } from '../ui';

const fetchCareers = async () => (await unwrap(api.GET('/api/settings/careers'))).data;
const orNull = (s: string) => (s.trim() === '' ? null : s.trim());

export function CareersSettings() {
  const [load, reload] = useLoad(fetchCareers);
  const [name, setName] = useState('');
  const [logo, setLogo] = useState('');
  const [privacy, setPrivacy] = useState('');
  const { busy, error, setError, saved, save } = useSave();
  useEffect(() => {
    if (load.state === 'ok') {
      setName(load.data.careers_name ?? '');
      setLogo(load.data.careers_logo_url ?? '');
      setPrivacy(load.data.careers_privacy_url ?? '');
    }
  }, [load]);

  const submit = async (e: Event) => {
    e.preventDefault();
    for (const [url, what] of [
      [logo, 'The logo URL'],
      [privacy, 'The privacy notice URL'],
    ] as const) {
      if (url.trim() && !url.trim().startsWith('https://')) return setError(`${what} must start with https://.`);
    }
    await save(async () => {
      await unwrap(
        api.PUT('/api/settings/careers', {
          body: { careers_name: orNull(name), careers_logo_url: orNull(logo), careers_privacy_url: orNull(privacy) },
        }),
      );
    }, reload);
  };

  return (
    <>
      <PageTitle title="Careers site">Careers site</PageTitle>
      <form class="card" onSubmit={submit} aria-labelledby="careers-h" noValidate>
        <h2 id="careers-h">How the careers pages present the workspace</h2>
        <p>
          The careers pages and the applicants' confirmation emails show this name; the logo and the privacy notice link show on every
          careers page. Leave a field empty to clear it.
        </p>
        <Loaded load={load} what="the careers settings" retry={reload}>
          {(data) => (
            <>
              <div class="field">
                <label for="careers-name">Name</label>
                <input
                  id="careers-name"
                  maxLength={100}
                  aria-describedby="careers-name-hint"
                  value={name}
                  onInput={(e) => setName(e.currentTarget.value)}
                />
                <p class="hint" id="careers-name-hint">
                  Empty: the workspace's name, {data.workspace_name}.
                </p>
              </div>
              <div class="field">
                <label for="careers-logo">Logo URL (https)</label>
                <input
                  id="careers-logo"
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  value={logo}
                  onInput={(e) => setLogo(e.currentTarget.value)}
                />
              </div>
              <div class="field">
                <label for="careers-privacy">Privacy notice URL (https)</label>
                <input
                  id="careers-privacy"
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  value={privacy}
                  onInput={(e) => setPrivacy(e.currentTarget.value)}
                />
              </div>
              <button type="submit" class="primary" disabled={busy}>
                {busy ? 'Saving…' : 'Save careers settings'}
              </button>
            </>
          )}
        </Loaded>
        {saved && <Notice kind="success">Careers settings saved.</Notice>}
        {error && (
          <p class="alert error" role="alert">
            {error}
          </p>
        )}
      </form>
    </>
  );
}
