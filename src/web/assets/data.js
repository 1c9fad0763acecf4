// The data view (group C): placeholder until the data routes exist on this branch.
export function setupData() {
  document.getElementById('data-status').textContent = 'The data routes are not served by this build yet.';
}
