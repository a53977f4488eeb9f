package io.gpumeter.alert.review;

import io.gpumeter.common.text.HtmlText;
import io.gpumeter.common.text.MarkdownText;

import java.util.List;

/**
 * One page written as Markdown or HTML. Every piece of text goes through the format's escaping — incident subjects,
 * summaries, evidence and commands are written by tenants, the cluster and reviewers — so no text opens a tag, a link,
 * a table cell or a code block; a link's target is built by the page, never taken from the text.
 */
interface PageWriter {

    void title(String text);

    void heading(String text);

    void paragraph(String text);

    /** A paragraph made of a text and a link to a path of this service. */
    void link(String text, String label, String href);

    void table(List<String> header, List<List<String>> rows);

    void list(List<String> items);

    /** A command to copy, shown exactly. */
    void code(String command);

    String page();

    final class Markdown implements PageWriter {

        private final StringBuilder md = new StringBuilder(4096);

        @Override
        public void title(String text) {
            md.append("# ").append(MarkdownText.literal(text)).append("\n\n");
        }

        @Override
        public void heading(String text) {
            md.append("## ").append(MarkdownText.literal(text)).append("\n\n");
        }

        @Override
        public void paragraph(String text) {
            for (String line : text.split("\\R")) {
                md.append(MarkdownText.literal(line)).append(line.isBlank() ? "\n" : "  \n");
            }
            md.append('\n');
        }

        @Override
        public void link(String text, String label, String href) {
            md.append(MarkdownText.literal(text)).append(" [").append(MarkdownText.literal(label)).append("](<")
                    .append(href.replace("<", "%3C").replace(">", "%3E").replace(" ", "%20")).append(">)\n\n");
        }

        @Override
        public void table(List<String> header, List<List<String>> rows) {
            md.append('|');
            header.forEach(h -> md.append(' ').append(MarkdownText.literal(h)).append(" |"));
            md.append("\n|").append("---|".repeat(header.size())).append('\n');
            for (List<String> row : rows) {
                md.append('|');
                row.forEach(cell -> md.append(' ').append(MarkdownText.literal(cell)).append(" |"));
                md.append('\n');
            }
            md.append('\n');
        }

        @Override
        public void list(List<String> items) {
            for (int i = 0; i < items.size(); i++) {
                md.append(i + 1).append(". ").append(MarkdownText.literal(items.get(i))).append('\n');
            }
            md.append('\n');
        }

        /** A fenced block whose fence is longer than any run of backticks in the command, so nothing closes it early. */
        @Override
        public void code(String command) {
            String text = command.replace("\r", "");
            int longest = 0;
            int run = 0;
            for (char c : text.toCharArray()) {
                run = c == '`' ? run + 1 : 0;
                longest = Math.max(longest, run);
            }
            String fence = "`".repeat(Math.max(3, longest + 1));
            md.append(fence).append("sh\n").append(text).append('\n').append(fence).append("\n\n");
        }

        @Override
        public String page() {
            return md.toString();
        }
    }

    final class Html implements PageWriter {

        private final StringBuilder body = new StringBuilder(8192);
        private String title = "";

        @Override
        public void title(String text) {
            title = text;
            body.append("<h1>").append(HtmlText.escape(text)).append("</h1>\n");
        }

        @Override
        public void heading(String text) {
            body.append("<h2>").append(HtmlText.escape(text)).append("</h2>\n");
        }

        @Override
        public void paragraph(String text) {
            body.append("<p>").append(HtmlText.escape(text).replaceAll("\\R", "<br>")).append("</p>\n");
        }

        @Override
        public void link(String text, String label, String href) {
            body.append("<p>").append(HtmlText.escape(text)).append(" <a href=\"").append(HtmlText.escape(href)).append("\">")
                    .append(HtmlText.escape(label)).append("</a></p>\n");
        }

        @Override
        public void table(List<String> header, List<List<String>> rows) {
            body.append("<table>\n<thead><tr>");
            header.forEach(h -> body.append("<th>").append(HtmlText.escape(h)).append("</th>"));
            body.append("</tr></thead>\n<tbody>\n");
            for (List<String> row : rows) {
                body.append("<tr>");
                row.forEach(cell -> body.append("<td>").append(HtmlText.escape(cell)).append("</td>"));
                body.append("</tr>\n");
            }
            body.append("</tbody>\n</table>\n");
        }

        @Override
        public void list(List<String> items) {
            body.append("<ol>\n");
            items.forEach(i -> body.append("<li>").append(HtmlText.escape(i)).append("</li>\n"));
            body.append("</ol>\n");
        }

        @Override
        public void code(String command) {
            body.append("<pre><code>").append(HtmlText.escape(command)).append("</code></pre>\n");
        }

        @Override
        public String page() {
            return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + HtmlText.escape(title)
                    + "</title>\n<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;line-height:1.4}"
                    + "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left;"
                    + "vertical-align:top}pre{background:#f4f4f4;padding:.5rem;overflow-x:auto}</style>\n</head>\n<body>\n"
                    + body + "</body>\n</html>\n";
        }
    }
}
