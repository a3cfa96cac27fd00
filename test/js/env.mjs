// env.mjs — what the node tests that ctest starts share: the value of an
// environment variable their ctest sets, or an error naming it.
export function env(name) {
  const value = process.env[name];
  if (!value) throw new Error(`set ${name} (the ctest that runs this file sets it)`);
  return value;
}
