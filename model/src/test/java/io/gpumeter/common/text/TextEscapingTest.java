package io.gpumeter.common.text;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TextEscapingTest {

    @Test
    void markdownShowsEveryOpenerLiterally() {
        assertEquals("\\# a\\|b \\[x\\](y) &lt;img src=x&gt; \\*\\_\\`\\~ c", MarkdownText.literal("# a|b [x](y) <img src=x> *_`~\nc"));
        assertEquals("\\- item", MarkdownText.literal("- item"));
        assertEquals("12\\. not a list", MarkdownText.literal("12. not a list"));
        assertEquals("a-b+c#d", MarkdownText.literal("a-b+c#d"));
        assertEquals("", MarkdownText.literal(null));
    }

    @Test
    void htmlOpensNoTagNorAttribute() {
        assertEquals("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp;amp;", HtmlText.escape("<script>alert(\"x\")</script> &amp;"));
        assertEquals("", HtmlText.escape(null));
    }
}
