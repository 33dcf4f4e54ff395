package dev.planvm.vm.batch;

import dev.planvm.json.AtomicFiles;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Locale;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/**
 * A {@link RegressionReport} as a JUnit XML report, the format CI servers read: one
 * {@code <testsuite name="planvm">} with one {@code <testcase>} per plan ({@code classname} its
 * directory, {@code name} its file name, {@code time} in seconds), a {@code <failure>} whose
 * message is the first difference and whose text is all of them, or {@code <skipped/>}.
 * Built with the JDK's DOM, so every text is escaped; characters XML 1.0 cannot hold (control
 * characters, unpaired surrogates) become U+FFFD.
 */
public final class JUnitXmlReport {

    private JUnitXmlReport() {}

    /** Writes the report to {@code file}, atomically. */
    public static void write(Path file, RegressionReport report) throws IOException {
        AtomicFiles.write(file, render(report));
    }

    /** The report as an XML document (UTF-8). */
    public static String render(RegressionReport report) {
        Document document = newDocument();
        Element suite = document.createElement("testsuite");
        suite.setAttribute("name", "planvm");
        suite.setAttribute("tests", String.valueOf(report.results().size()));
        suite.setAttribute("failures", String.valueOf(report.failed()));
        suite.setAttribute("errors", "0");
        suite.setAttribute("skipped", String.valueOf(report.skipped()));
        suite.setAttribute(
                "time",
                seconds(report.results().stream()
                        .mapToLong(RegressionResult::durationMs)
                        .sum()));
        document.appendChild(suite);
        for (RegressionResult result : report.results()) {
            suite.appendChild(testcase(document, result));
        }
        return serialize(document);
    }

    private static Element testcase(Document document, RegressionResult result) {
        Element testcase = document.createElement("testcase");
        Path dir = result.plan().getParent();
        testcase.setAttribute("classname", xmlSafe(dir == null ? "." : dir.toString()));
        testcase.setAttribute("name", xmlSafe(result.plan().getFileName().toString()));
        testcase.setAttribute("time", seconds(result.durationMs()));
        if (result.verdict() == RegressionResult.Verdict.FAILED) {
            Element failure = document.createElement("failure");
            failure.setAttribute(
                    "message",
                    xmlSafe(
                            result.details().isEmpty()
                                    ? "failed"
                                    : result.details().get(0)));
            failure.setTextContent(xmlSafe(String.join("\n", result.details())));
            testcase.appendChild(failure);
        } else if (result.verdict() == RegressionResult.Verdict.SKIPPED) {
            Element skipped = document.createElement("skipped");
            skipped.setAttribute("message", xmlSafe(String.join("; ", result.details())));
            testcase.appendChild(skipped);
        }
        return testcase;
    }

    /** {@code text} with every character XML 1.0 cannot hold replaced by U+FFFD. */
    static String xmlSafe(String text) {
        StringBuilder safe = new StringBuilder(text.length());
        text.codePoints().forEach(c -> safe.appendCodePoint(allowed(c) ? c : 0xFFFD));
        return safe.toString();
    }

    private static boolean allowed(int c) {
        return c == 0x9
                || c == 0xA
                || c == 0xD
                || (c >= 0x20 && c <= 0xD7FF)
                || (c >= 0xE000 && c <= 0xFFFD)
                || (c >= 0x10000 && c <= 0x10FFFF);
    }

    private static String seconds(long millis) {
        return String.format(Locale.ROOT, "%.3f", millis / 1000.0);
    }

    private static Document newDocument() {
        try {
            return DocumentBuilderFactory.newInstance().newDocumentBuilder().newDocument();
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException("no XML document builder", e);
        }
    }

    private static String serialize(Document document) {
        try {
            TransformerFactory factory = TransformerFactory.newInstance();
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            Transformer transformer = factory.newTransformer();
            transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            transformer.setOutputProperty(OutputKeys.OMIT_XML_DECLARATION, "yes");
            transformer.setOutputProperty(OutputKeys.INDENT, "yes");
            transformer.setOutputProperty("{http://xml.apache.org/xslt}indent-amount", "2");
            StringWriter xml = new StringWriter().append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            transformer.transform(new DOMSource(document), new StreamResult(xml));
            return xml.toString().stripTrailing() + "\n";
        } catch (TransformerException e) {
            throw new IllegalStateException("cannot write the JUnit XML report", e);
        }
    }
}
