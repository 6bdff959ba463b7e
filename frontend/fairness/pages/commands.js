// The verify commands every language's page shows as they are typed ({server}: this origin).
export const COMMANDS = [
  "python -m foursquare verify --server {server} --from {from} --to {to}",
  "python -m spitemalice verify --server {server} --from {from} --to {to}",
  "python -m spitemalice verify --record game.json",
  "python -m foursquare verify --record race.json",
].join("\n");
