// SPDX-License-Identifier: Apache-2.0
package dev.brisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

/**
 * brisk-core as a library user gets it: the programs of docs/LIBRARY.md (one per exported package) compile and run
 * against the jar the build made and print what the page says; the sources and Javadoc jars are
 * beside it; the POM names what a published artifact must (url, license, scm, developers).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class LibraryIT {
    private static final Path ROOT = Path.of(System.getProperty("brisk.root", "..")).toAbsolutePath().normalize();
    private static final String VERSION = System.getProperty("brisk.version", "0.1.0");
    private static final Path CORE = ROOT.resolve("core/target/brisk-core-" + VERSION + ".jar");

    @Test
    void theFirstProgramOfTheLibraryPageRunsAsItSays(@TempDir Path dir) throws Exception {
        String page = Files.readString(ROOT.resolve("docs/LIBRARY.md"));
        assertThat(page).contains("`dev.brisk:brisk-core:" + VERSION + "`", "<version>" + VERSION + "</version>");
        List<String[]> programs = programs(page);
        assertThat(programs).as("programs of docs/LIBRARY.md").isNotEmpty();
        runsAsItSays(dir, programs.getFirst());
    }

    /**
     * Every program of the page (a {@code java} block that declares a public class, with the
     * {@code text} block after it), one per exported package at least, compiles against the jar
     * and prints what the page says.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyProgramOfTheLibraryPageRunsAsItSays(@TempDir Path dir) throws Exception {
        String page = Files.readString(ROOT.resolve("docs/LIBRARY.md"));
        List<String[]> programs = programs(page);
        java.util.Set<String> packages = new java.util.TreeSet<>();
        for (String[] p : programs) {
            Matcher m = Pattern.compile("import (dev\\.brisk\\.\\w+)\\.").matcher(p[0]);
            while (m.find()) {
                packages.add(m.group(1));
            }
            runsAsItSays(Files.createDirectories(dir.resolve(className(p[0]))), p);
        }
        String moduleInfo = Files.readString(ROOT.resolve("core/src/main/java/module-info.java"));
        Matcher exports = Pattern.compile("exports ([\\w.]+);").matcher(moduleInfo);
        while (exports.find()) {
            assertThat(packages).as("a program of docs/LIBRARY.md uses each exported package").contains(exports.group(1));
        }
    }

    private static void runsAsItSays(Path dir, String[] program) throws Exception {
        Path source = dir.resolve(className(program[0]) + ".java");
        Files.writeString(source, program[0]);
        String out = run(dir, System.getProperty("brisk.java", "java"), "--enable-native-access=ALL-UNNAMED",
                "-cp", CORE.toString(), source.toString());
        assertThat(out).as(source.getFileName().toString()).isEqualTo(program[1]);
    }

    private static String className(String program) {
        Matcher name = Pattern.compile("public class (\\w+)").matcher(program);
        assertThat(name.find()).as(program).isTrue();
        return name.group(1);
    }

    /** The page's programs: each {@code java} block declaring a public class, with the {@code text} block after it. */
    private static List<String[]> programs(String page) {
        List<String[]> programs = new java.util.ArrayList<>();
        Matcher java = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(page);
        while (java.find()) {
            if (java.group(1).contains("public class ")) {
                int next = page.indexOf("```java", java.end());
                Matcher text = Pattern.compile("```text\\n(.*?)```", Pattern.DOTALL).matcher(page)
                        .region(java.end(), next < 0 ? page.length() : next);
                assertThat(text.find()).as("the output after the program ending at offset %d", java.end()).isTrue();
                programs.add(new String[] {java.group(1), text.group(1)});
            }
        }
        return programs;
    }

    @Test
    void sourcesAndJavadocJarsAreBesideTheJar() throws IOException {
        Path sources = CORE.resolveSibling("brisk-core-" + VERSION + "-sources.jar");
        Path javadoc = CORE.resolveSibling("brisk-core-" + VERSION + "-javadoc.jar");
        try (JarFile s = new JarFile(sources.toFile()); JarFile j = new JarFile(javadoc.toFile())) {
            assertThat(s.getEntry("dev/brisk/shell/ShellPool.java")).isNotNull();
            assertThat(s.getEntry("module-info.java")).isNotNull();
            assertThat(j.getEntry("dev.brisk.core/dev/brisk/shell/ShellPool.html") != null
                    || j.getEntry("dev/brisk/shell/ShellPool.html") != null).as("ShellPool's page in " + javadoc).isTrue();
        }
    }

    @Test
    void thePomNamesWhatAPublishedArtifactMust() throws Exception {
        Document parent = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("pom.xml").toFile());
        Document core = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(ROOT.resolve("core/pom.xml").toFile());
        var xpath = XPathFactory.newInstance().newXPath();
        for (String field : List.of("url", "scm/connection", "scm/developerConnection", "scm/url",
                "developers/developer/name", "developers/developer/email", "licenses/license/url", "inceptionYear")) {
            String value = (String) xpath.evaluate("/*[local-name()='project']/" + localNames(field), parent, XPathConstants.STRING);
            assertThat(value).as(field).isNotBlank().doesNotContainPattern("\\b[A-Z]{3,}-[A-Z]{2,}\\b|PLACEHOLDER|\\$\\{");
        }
        assertThat(xpath.evaluate("/*[local-name()='project']/" + localNames("licenses/license/name"), parent)).isEqualTo("Apache-2.0");
        assertThat(Files.readString(ROOT.resolve("LICENSE"))).contains("Apache License", "Version 2.0");
        for (String field : List.of("name", "description")) {
            assertThat(xpath.evaluate("/*[local-name()='project']/" + localNames(field), core)).as(field).isNotBlank();
        }
    }

    private static String localNames(String path) {
        return String.join("/", java.util.Arrays.stream(path.split("/")).map(p -> "*[local-name()='" + p + "']").toList());
    }

    private static String run(Path dir, String... cmd) throws Exception {
        return ProcessOutput.of(new ProcessBuilder(cmd).directory(dir.toFile()), 100);
    }
}
