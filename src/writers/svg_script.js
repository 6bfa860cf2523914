// flamekit's flame graph script: placeholder until the interactive one lands.
function init(evt) {
}
