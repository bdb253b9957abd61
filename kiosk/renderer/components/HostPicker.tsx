import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import type { KioskHost } from '../../src/sync/siteHosts';

interface HostPickerProps {
  /** The input's id (its label points at it) and the props that tie it to its label, hint and error. */
  inputProps: {
    id: string;
    name: string;
    'aria-invalid'?: true;
    'aria-required'?: true;
    'aria-describedby'?: string;
    onBlur: () => void;
  };
  hosts: readonly KioskHost[];
  /** The chosen host's id as text, or '' / undefined for none. */
  value: string | undefined;
  onChange: (value: string) => void;
}

/** For matching as people type: case and accents do not matter ("jose" finds "José"). */
const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase();

/** Shown at most, so a long list stays quick to read on a tablet; typing more narrows it. */
const MAX_SHOWN = 8;

/**
 * "Who are you visiting?": a search-as-you-type list of the site's hosts (docs/notifications.md), the
 * WAI-ARIA combobox pattern with a listbox popup: type to filter, arrow keys to move, Enter or a tap to
 * choose, Escape to close. Only a name from the list can be chosen; typing again clears the choice.
 */
export function HostPicker({ inputProps, hosts, value, onChange }: HostPickerProps) {
  const listId = useId();
  const chosen = hosts.find((host) => String(host.hostId) === value);
  const [text, setText] = useState(chosen?.name ?? '');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const matches = useMemo(() => {
    const typed = folded(text.trim());
    const words = typed.split(/\s+/).filter(Boolean);
    return hosts.filter((host) => words.every((word) => folded(host.name).includes(word))).slice(0, MAX_SHOWN);
  }, [hosts, text]);
  const showing = open && text.trim() !== '' && chosen?.name !== text;

  const choose = (host: KioskHost) => {
    setText(host.name);
    setOpen(false);
    onChange(String(host.hostId));
  };
  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((index) => Math.min(index + 1, Math.max(matches.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === 'Enter' && showing) {
      // Enter picks the highlighted host rather than submitting a form with nobody chosen.
      event.preventDefault();
      const host = matches[active];
      if (host) choose(host);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };
  const optionId = (index: number) => `${listId}-option-${index}`;

  return (
    <div className="host-picker">
      <input
        {...inputProps}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={showing}
        aria-controls={listId}
        aria-activedescendant={showing && matches[active] ? optionId(active) : undefined}
        autoComplete="off"
        autoCapitalize="words"
        spellCheck={false}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(0);
          if (value) onChange('');
        }}
        onKeyDown={keyDown}
      />
      <ul id={listId} role="listbox" aria-label="Hosts" className="host-options" hidden={!showing}>
        {showing && matches.length === 0 ? (
          <li className="host-option-none" role="option" aria-selected={false} aria-disabled="true">
            Nobody by that name. Please ask at reception.
          </li>
        ) : null}
        {showing
          ? matches.map((host, index) => (
              <li
                key={host.hostId}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                className={index === active ? 'host-option active' : 'host-option'}
                // Chosen on pointer down, before the input's blur could close the list.
                onPointerDown={(event) => {
                  event.preventDefault();
                  choose(host);
                }}
              >
                {host.name}
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
