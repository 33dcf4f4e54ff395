package dev.planvm.vm.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

class JUnitXmlReportTest {

    @TempDir
    Path dir;

    private static final String TRICKY = "expected \"a\" <b> & 'c' — ünïcødé 😀 \u0001end";

    private static RegressionReport report() {
        return new RegressionReport(List.of(
                RegressionResult.passed(Path.of("plans/a.json"), 12),
                RegressionResult.failed(
                        Path.of("plans/b.json"), List.of("/final_answer: " + TRICKY, "second line"), 1500),
                RegressionResult.skipped(Path.of("c.json"), "no c.expected.json")));
    }

    private static Document parse(String xml) throws Exception {
        return DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void the_report_is_well_formed_with_one_testcase_per_plan() throws Exception {
        Element suite = parse(JUnitXmlReport.render(report())).getDocumentElement();
        assertThat(suite.getTagName()).isEqualTo("testsuite");
        assertThat(suite.getAttribute("name")).isEqualTo("planvm");
        assertThat(suite.getAttribute("tests")).isEqualTo("3");
        assertThat(suite.getAttribute("failures")).isEqualTo("1");
        assertThat(suite.getAttribute("skipped")).isEqualTo("1");
        assertThat(suite.getAttribute("time")).isEqualTo("1.512");
        NodeList cases = suite.getElementsByTagName("testcase");
        assertThat(cases.getLength()).isEqualTo(3);
        Element passed = (Element) cases.item(0);
        assertThat(passed.getAttribute("classname")).isEqualTo("plans");
        assertThat(passed.getAttribute("name")).isEqualTo("a.json");
        assertThat(passed.getAttribute("time")).isEqualTo("0.012");
        assertThat(passed.getChildNodes().getLength()).isZero();
        Element skipped = (Element) cases.item(2);
        assertThat(skipped.getAttribute("classname")).isEqualTo(".");
        assertThat(skipped.getElementsByTagName("skipped").getLength()).isEqualTo(1);
    }

    @Test
    void a_failure_carries_its_first_difference_as_message_and_all_as_text_escaped() throws Exception {
        Element failure = (Element) parse(JUnitXmlReport.render(report()))
                .getElementsByTagName("failure")
                .item(0);
        String safe = TRICKY.replace('\u0001', '\uFFFD');
        assertThat(failure.getAttribute("message")).isEqualTo("/final_answer: " + safe);
        assertThat(failure.getTextContent()).isEqualTo("/final_answer: " + safe + "\nsecond line");
    }

    @Test
    void characters_xml_cannot_hold_become_replacement_characters() {
        assertThat(JUnitXmlReport.xmlSafe("a\u0000b\u001Fc\td\uD800e")).isEqualTo("a\uFFFDb\uFFFDc\td\uFFFDe");
        assertThat(JUnitXmlReport.xmlSafe("😀 ü")).isEqualTo("😀 ü");
    }

    @Test
    void the_report_is_written_to_a_file_in_utf_8() throws Exception {
        Path file = dir.resolve("reports/junit.xml");
        JUnitXmlReport.write(file, report());
        String xml = Files.readString(file, StandardCharsets.UTF_8);
        assertThat(xml).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuite");
        assertThat(parse(xml).getElementsByTagName("testcase").getLength()).isEqualTo(3);
        try (var files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
    }
}
