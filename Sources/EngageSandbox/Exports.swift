// Emulator modules depend on EngageSandbox alone: they get Hummingbird's routing types
// (`RouterGroup`, `Request`, `Response`, ...), the HTTP currency types (`HTTPResponse.Status`,
// `HTTPField.Name`, ...) and `Logger` through this module.
@_exported import HTTPTypes
@_exported import Hummingbird
@_exported import Logging
