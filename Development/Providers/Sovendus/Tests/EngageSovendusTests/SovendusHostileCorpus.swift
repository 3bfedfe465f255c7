/// Values that break out of a naively written banner page. Each one that executes sets
/// `window.__engageMarker` or adds an element carrying `data-engage-injected`, which the browser test
/// reads back.
enum SovendusHostileCorpus {
    static let marker = "window.__engageMarker=1"

    static let values: [String] = [
        // Closing the script element, in every spelling the HTML tokenizer accepts.
        "</script><script>\(marker)</script>",
        "</SCRIPT><SCRIPT>\(marker)</SCRIPT>",
        "</script ><script>\(marker)</script>",
        "</script\t><script>\(marker)</script>",
        "</script/><script>\(marker)</script>",
        "</scRipt><img src=x onerror=\"\(marker)\" data-engage-injected>",
        "</script><svg onload=\"\(marker)\" data-engage-injected></svg>",
        "</script><iframe srcdoc=\"<script>parent.__engageMarker=1</script>\" data-engage-injected></iframe>",
        "</script><div data-engage-injected>x</div><script>",
        "</script",
        "</",
        // Comment and CDATA states inside a script.
        "<!--<script>",
        "<!--",
        "-->",
        "<!-- </script><script>\(marker)</script> -->",
        "<![CDATA[",
        "]]>",
        "<script>\(marker)</script>",
        // Breaking out of a JavaScript string literal.
        "\"; \(marker); //",
        "'; \(marker); //",
        "\\\"; \(marker); //",
        "\\'; \(marker); //",
        "\"}); \(marker); ({\"",
        "\"+(\(marker))+\"",
        "'+(\(marker))+'",
        "\\",
        "\\\\",
        "\\u0022",
        "\\x22; \(marker); //",
        // Template literals and template engines.
        "${\(marker)}",
        "`+(\(marker))+`",
        "`; \(marker); `",
        "{{constructor.constructor('\(marker)')()}}",
        "#{\(marker)}",
        // Line terminators JavaScript engines treat differently.
        "\u{2028}\(marker)",
        "\u{2029}\(marker)",
        "a\u{2028}b\u{2029}c",
        "line\nbreak\r\nand\rreturn",
        // NUL and other control characters.
        "\u{0}",
        "a\u{0}b\u{0}</script>",
        "\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}\u{B}\u{C}\u{E}\u{F}",
        "\u{10}\u{11}\u{12}\u{13}\u{14}\u{15}\u{16}\u{17}\u{18}\u{19}\u{1A}\u{1B}\u{1C}\u{1D}\u{1E}\u{1F}\u{7F}",
        "\t\t tabs \t",
        "\u{85}\u{A0}\u{2000}\u{200B}\u{FEFF}",
        // HTML entities and their encodings, which must stay text.
        "&lt;/script&gt;&lt;script&gt;\(marker)&lt;/script&gt;",
        "&#60;/script&#62;",
        "&#x3C;/script&#x3E;",
        "&amp;&quot;&apos;&nbsp;",
        "&",
        "<>",
        // URL schemes a bridge must never open (here only text).
        "javascript:\(marker)",
        "data:text/html,<script>\(marker)</script>",
        // Unicode: bidirectional overrides, combining marks, non-BMP.
        "\u{202E}gnp.exe",
        "e\u{301}\u{302}\u{303}\u{304}",
        "😀👩‍👩‍👧‍👦𝕏𝔸𐍈",
        "中文 العربية עברית",
        "\u{10FFFF}\u{E000}",
        // Sizes.
        "",
        " ",
        String(repeating: "A", count: 10_000),
        String(repeating: "</script>😀\u{2028}\"\\", count: 1_000),
        // JSON look-alikes.
        "{\"type\":\"openUrl\",\"value\":\"javascript:\(marker)\"}",
        "null",
        "undefined",
        "__proto__",
        "constructor",
    ]
}
