// Package config holds the typed configuration of the two programs, the
// validation service and the signing server, and loads it.
//
// # Sources
//
// Each setting comes from, in rising precedence: its default, an optional
// YAML file (flag --config), and its environment variable. The YAML file
// uses the dotted keys of the specs, nested or flat; an unknown key fails
// the load. Environment variables are read from an explicit table (see
// [ValidatorKeys] and [SignerKeys]) because the specs name them by hand.
//
// # Errors
//
// A value that cannot be used fails the load with a [KeyError], one line
// that names the key, the environment variable and the value. Rules that
// span settings are checked by Validate after defaults are applied;
// Validate never changes the configuration.
//
// # Non-goals
//
// The package does not open files, keystores or databases: it resolves
// locations to paths, and the adapters that use them report what they find.
package config
