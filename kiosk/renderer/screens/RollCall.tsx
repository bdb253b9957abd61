import type { Kiosk } from '../../src/kiosk';
import { StatusBadge } from '../components/StatusBadge';
import { useObservable } from '../hooks/useObservable';
import { personStatusText, shortTime } from '../words';
import { RollCallAge } from './RollCallAge';

/**
 * Everyone on site, from this device's own data: in an evacuation the network may be the first thing to
 * go, and this list must still be there. Visits the server has not seen yet are marked, and the list says
 * how old it is (RollCallAge).
 */
export function RollCall({ kiosk, showVehicles }: { kiosk: Kiosk; showVehicles: boolean }) {
  const people = useObservable(kiosk.rollCall);
  const vehicles = useObservable(kiosk.vehiclesOnSite);
  if (!people) return <p className="loading">Loading…</p>;
  return (
    <div className="roll-call">
      <div className="screen-head">
        <h1 className="screen-title">Roll call</h1>
        <p className="screen-count">
          <strong>{people.length}</strong> {people.length === 1 ? 'person' : 'people'} on site
        </p>
      </div>
      <RollCallAge kiosk={kiosk} />
      {people.length === 0 ? (
        <p className="empty">Nobody is on site.</p>
      ) : (
        // Roles said outright and labels on the cells: on a phone the rows are laid out as cards (phone.css),
        // and a table so laid out must still read as one.
        <table className="table people-table" role="table">
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
                  {visit.serverId === undefined ? <span className="tag">not synced yet</span> : null}
                </th>
                <td role="cell" data-label="Company">
                  {visit.person.company ?? '—'}
                </td>
                <td role="cell" data-label="Status">
                  <StatusBadge status={visit.status} label={personStatusText(visit.status)} />
                </td>
                <td role="cell" data-label="Since">
                  {shortTime(visit.lastEventAt)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
                      {visit.licensePlate}
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
