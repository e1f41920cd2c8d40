internal import CZWaveShim

/// Whether the shim sees an OpenZWave Manager in the process (`zw_manager_exists`).
func zwManagerExists() -> Bool { zw_manager_exists() }
