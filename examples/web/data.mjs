// The example's data, shared by the page (app.mjs) and its browser test.
export const PLANETS = [
  { name: 'Mercury', radius: 2439.7, moons: 0 },
  { name: 'Venus', radius: 6051.8, moons: 0 },
  { name: 'Earth', radius: 6371.0, moons: 1 },
  { name: 'Mars', radius: 3389.5, moons: 2 },
  { name: 'Jupiter', radius: 69911.0, moons: 95 },
];

// The int32 values the page sorts with qsort and a JS comparator.
export const UNSORTED = [31, -7, 1024, 0, 42, -2147483648, 5, 2147483647, 42, -300];
