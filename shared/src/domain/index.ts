export * from './occurredAt';
export * from './transition';
export * from './personCheckin';
export * from './vehicleCheckin';
export * from './checkinForm';
export * from './plate';
export * from './watchlist';
export * from './siteDay';
