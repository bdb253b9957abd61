import { normalizePlate } from '../../../shared/src/domain';
import type { PersonVisit } from '../../src/data/types';
import type { Kiosk } from '../../src/kiosk';
import { StatusBadge } from '../components/StatusBadge';
import { useObservable } from '../hooks/useObservable';
import { personStatusText, shortTime } from '../words';
import { RollCallAge } from './RollCallAge';

const peopleWord = (count: number) => (count === 1 ? 'person' : 'people');

/**
 * Everyone on site, from this device's own data: in an evacuation the network may be the first thing to
 * go, and this list must still be there. It counts what the console counts once synced (IN, ON_BREAK and
 * PENDING, the last shown apart as waiting); a check-in the server refused is listed apart and not
 * counted. Visits the server has not seen yet are marked, and the list says how old it is (RollCallAge).
 */
export function RollCall({ kiosk, showVehicles }: { kiosk: Kiosk; showVehicles: boolean }) {
  const view = useObservable(kiosk.rollCall);
  const vehicles = useObservable(kiosk.vehiclesOnSite);
  if (!view) return <p className="loading">Loading…</p>;
  const waiting = view.people.filter((visit) => visit.status === 'PENDING');
  const here = view.people.filter((visit) => visit.status !== 'PENDING');
  const count = view.people.length;
  return (
    <div className="roll-call">
      <div className="screen-head">
        <h1 className="screen-title">Roll call</h1>
        <p className="screen-count">
          <strong>{count}</strong> {peopleWord(count)} on site
          {waiting.length > 0 ? `, ${waiting.length} of them waiting` : null}
        </p>
      </div>
      <RollCallAge kiosk={kiosk} />
      {count === 0 ? <p className="empty">Nobody is on site.</p> : null}
      {here.length > 0 ? <PeopleTable label="On site" people={here} /> : null}
      {waiting.length > 0 ? (
        <>
          <h2 id="roll-call-waiting" className="section-title">
            Waiting for approval <span className="count">{waiting.length}</span>
          </h2>
          <PeopleTable labelledBy="roll-call-waiting" people={waiting} />
        </>
      ) : null}
      {view.refused.length > 0 ? (
        <>
          <h2 id="roll-call-refused" className="section-title">
            Not counted: check-ins the server refused <span className="count">{view.refused.length}</span>
          </h2>
          <p className="screen-lead">
            The server did not take these check-ins (see Needs attention), so they are on site for nobody else. The
            people may still be in the building.
          </p>
          <PeopleTable labelledBy="roll-call-refused" people={view.refused} refused />
        </>
      ) : null}
      {showVehicles && vehicles ? (
        <>
          <h2 className="section-title">
            Vehicles <span className="count">{vehicles.length}</span>
          </h2>
          {vehicles.length === 0 ? (
            <p className="empty">No vehicles on site.</p>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Plate</th>
                  <th scope="col">Status</th>
                  <th scope="col">Since</th>
                </tr>
              </thead>
              <tbody>
                {vehicles.map((visit) => (
                  <tr key={visit.visitId}>
                    <th scope="row" className="vehicle-plate">
                      {normalizePlate(visit.licensePlate)}
                    </th>
                    <td>
                      <StatusBadge status={visit.status} />
                    </td>
                    <td>{shortTime(visit.entryAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      ) : null}
    </div>
  );
}

/**
 * One group of the Roll call, named by `label` or by the heading `labelledBy`. `refused`: check-ins the
 * server refused, whose status is only what this kiosk predicted, so none is shown.
 */
function PeopleTable({
  people,
  label,
  labelledBy,
  refused = false,
}: {
  people: readonly PersonVisit[];
  label?: string;
  labelledBy?: string;
  refused?: boolean;
}) {
  // Roles said outright and labels on the cells: on a phone the rows are laid out as cards (phone.css), and
  // a table so laid out must still read as one.
  return (
    <table className="table people-table" role="table" aria-label={label} aria-labelledby={labelledBy}>
      <thead>
        <tr role="row">
          <th scope="col" role="columnheader">
            Name
          </th>
          <th scope="col" role="columnheader">
            Company
          </th>
          <th scope="col" role="columnheader">
            Status
          </th>
          <th scope="col" role="columnheader">
            Since
          </th>
        </tr>
      </thead>
      <tbody>
        {people.map((visit) => (
          <tr key={visit.visitId} role="row">
            <th scope="row" role="rowheader">
              {visit.person.lastName}, {visit.person.firstName}
              {visit.serverId === undefined && !refused ? <span className="tag">not synced yet</span> : null}
            </th>
            <td role="cell" data-label="Company">
              {visit.person.company ?? '—'}
            </td>
            <td role="cell" data-label="Status">
              {refused ? (
                <span className="badge">Refused by the server</span>
              ) : (
                <StatusBadge status={visit.status} label={personStatusText(visit.status)} />
              )}
            </td>
            <td role="cell" data-label="Since">
              {shortTime(visit.lastEventAt)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
