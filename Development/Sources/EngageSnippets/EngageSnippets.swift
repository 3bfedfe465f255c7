// A module without code: its product is what the development package's snippets link (see its target
// in Development/Package.swift). SwiftPM links a snippet with the package's library products and what
// they depend on, and this product depends on every library of the SDK's package, so a snippet, or a
// code block of the docs compiled as one, may import any of them as an app or a provider author would.
