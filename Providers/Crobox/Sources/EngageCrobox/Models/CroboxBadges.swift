import Foundation
@_spi(EngageProvider) import EngageCore

/// The components Crobox's mobile apps render, by name.
public enum CroboxComponent {
    public static let imageBadge = "mob-app-image-badge.tsx"
    public static let textBadge = "mob-app-text-badge.tsx"
    public static let secondaryMessaging = "mob-app-secondary-messaging.tsx"
}

/// An image badge: `image` (URL) and optional `altText`.
public struct CroboxImageBadge: Sendable, Equatable, Codable {
    public var image: String
    public var altText: String?

    public init(image: String, altText: String? = nil) {
        self.image = image
        self.altText = altText
    }
}

/// A text badge: `text`, and colours as sent (`#RRGGBB`, `#AARRGGBB` or `rgba(…)`).
public struct CroboxTextBadge: Sendable, Equatable, Codable {
    public var text: String
    public var fontColor: String?
    public var backgroundColor: String?
    public var borderColor: String?

    public init(text: String, fontColor: String? = nil, backgroundColor: String? = nil, borderColor: String? = nil) {
        self.text = text
        self.fontColor = fontColor
        self.backgroundColor = backgroundColor
        self.borderColor = borderColor
    }

    /// `fontColor` parsed, or `nil` if absent or not a colour.
    public var fontRGBA: RGBAColor? { fontColor.flatMap { try? CroboxColor.parse($0) } }
    /// `backgroundColor` parsed, or `nil` if absent or not a colour.
    public var backgroundRGBA: RGBAColor? { backgroundColor.flatMap { try? CroboxColor.parse($0) } }
    /// `borderColor` parsed, or `nil` if absent or not a colour.
    public var borderRGBA: RGBAColor? { borderColor.flatMap { try? CroboxColor.parse($0) } }
}

/// A secondary message under a product: `text` and `fontColor`.
public struct CroboxSecondaryMessaging: Sendable, Equatable, Codable {
    public var text: String
    public var fontColor: String?

    public init(text: String, fontColor: String? = nil) {
        self.text = text
        self.fontColor = fontColor
    }

    /// `fontColor` parsed, or `nil` if absent or not a colour.
    public var fontRGBA: RGBAColor? { fontColor.flatMap { try? CroboxColor.parse($0) } }
}

/// A promotion's configuration read by its component name.
public enum CroboxComponentConfig: Sendable, Equatable {
    case imageBadge(CroboxImageBadge)
    case textBadge(CroboxTextBadge)
    case secondaryMessaging(CroboxSecondaryMessaging)
    /// A component this SDK does not know, or a known one missing its required keys: the raw map.
    case unknown(componentName: String, config: [String: String])
}

extension CroboxPromotionContent {
    /// The configuration typed by component name (`mob-app-text-badge.tsx` → `.textBadge`, …).
    public var typedConfig: CroboxComponentConfig {
        switch componentName {
        case CroboxComponent.imageBadge:
            if let badge = imageBadge { return .imageBadge(badge) }
        case CroboxComponent.textBadge:
            if let badge = textBadge { return .textBadge(badge) }
        case CroboxComponent.secondaryMessaging:
            if let text = config["text"] {
                return .secondaryMessaging(CroboxSecondaryMessaging(text: text, fontColor: config["fontColor"]))
            }
        default:
            break
        }
        return .unknown(componentName: componentName, config: config)
    }

    /// A text badge read by keys, whatever the component: present when `text` is.
    public var textBadge: CroboxTextBadge? {
        config["text"].map {
            CroboxTextBadge(
                text: $0, fontColor: config["fontColor"], backgroundColor: config["backgroundColor"], borderColor: config["borderColor"])
        }
    }

    /// An image badge read by keys, whatever the component: present when `image` is.
    public var imageBadge: CroboxImageBadge? {
        config["image"].map { CroboxImageBadge(image: $0, altText: config["altText"]) }
    }
}

/// Parses Crobox colours into a platform-neutral `RGBAColor`.
package enum CroboxColor {
    /// Parses `#RRGGBB`, `#AARRGGBB` (8 digits are alpha first) and `rgba(r, g, b, a)` with `a` in
    /// 0...1 (`rgba(204, 204, 204, 0.5)` → alpha 128). Throws `.invalidInput` for anything else.
    package static func parse(_ text: String) throws(EngageError) -> RGBAColor {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#") {
            let hex = trimmed.dropFirst()
            guard hex.count == 6 || hex.count == 8, let value = UInt32(hex, radix: 16) else { throw invalid(text) }
            let byte = { (shift: UInt32) in UInt8((value >> shift) & 0xFF) }
            return hex.count == 6
                ? RGBAColor(red: byte(16), green: byte(8), blue: byte(0), alpha: 255)
                : RGBAColor(red: byte(16), green: byte(8), blue: byte(0), alpha: byte(24))
        }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("rgba("), lowered.hasSuffix(")") {
            let parts = lowered.dropFirst(5).dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 4,
                let red = UInt8(parts[0]), let green = UInt8(parts[1]), let blue = UInt8(parts[2]),
                let alpha = Double(parts[3]), alpha.isFinite, (0...1).contains(alpha)
            else { throw invalid(text) }
            return RGBAColor(red: red, green: green, blue: blue, alpha: UInt8((alpha * 255).rounded()))
        }
        throw invalid(text)
    }

    private static func invalid(_ text: String) -> EngageError {
        EngageError(
            .invalidInput, "'\(text.prefix(40))' is not a colour: expected #RRGGBB, #AARRGGBB or rgba(r, g, b, a).",
            providerID: "crobox"
        )
    }
}
