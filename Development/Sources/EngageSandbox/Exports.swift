// What an emulator needs to implement `Emulator` with `import EngageSandbox` alone: the types that
// appear in this module's public API (routes, requests, responses, statuses, header fields, loggers).
// Single symbols, not whole modules, so that importing EngageSandbox does not bring Hummingbird's,
// HTTPTypes' and swift-log's entire API into a file. An emulator that uses more of Hummingbird (route
// parameters, body streaming) imports it itself and lists it among its target's dependencies.
@_exported import struct HTTPTypes.HTTPField
@_exported import struct HTTPTypes.HTTPFields
@_exported import struct HTTPTypes.HTTPRequest
@_exported import struct HTTPTypes.HTTPResponse
@_exported import protocol Hummingbird.RequestContext
@_exported import struct Hummingbird.Request
@_exported import struct Hummingbird.Response
@_exported import struct Hummingbird.ResponseBody
@_exported import struct Hummingbird.RouterGroup
@_exported import struct Logging.Logger
// The project's one seeded generator, for seed data and opaque tokens.
@_exported import struct EngageTesting.SeededGenerator
