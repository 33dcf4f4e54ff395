package dev.planvm.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.model.mistralai.MistralAiChatModel;
import dev.langchain4j.model.ollama.OllamaChatModel;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Ollama (1.18.1) and Mistral (1.18.0) modules run beside the 1.19 langchain4j core: they were compiled
 * against 1.18, so a class, method or field of the core they use that 1.19 removed or changed would fail only when
 * that code runs. This test reads every class of each module jar, resolves every reference it makes into
 * another langchain4j package (class, method with its exact descriptor, field) against the classes on the class
 * path, and checks that no concrete class leaves an interface method of the 1.19 core unimplemented. An upgrade
 * of either side that breaks the link fails here, naming the reference.
 */
class Langchain4jModulesLinkTest {

    @ParameterizedTest
    @ValueSource(strings = {"ollama", "mistralai"})
    void every_reference_the_module_makes_into_the_core_resolves(String module) throws Exception {
        Class<?> anchor = module.equals("ollama") ? OllamaChatModel.class : MistralAiChatModel.class;
        Path jar = Path.of(
                anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
        String own = "dev/langchain4j/model/" + module + "/";
        List<String> broken = new ArrayList<>();
        int checked = 0;
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                if (!entry.getName().endsWith(".class") || entry.getName().contains("module-info")) {
                    continue;
                }
                try (InputStream in = zip.getInputStream(entry)) {
                    for (Ref ref : refs(new DataInputStream(in))) {
                        if (ref.owner().startsWith("dev/langchain4j/")
                                && !ref.owner().startsWith(own)) {
                            checked++;
                            if (!resolves(ref)) {
                                broken.add(entry.getName() + " -> " + ref);
                            }
                        }
                    }
                }
                Class<?> type = Class.forName(
                        entry.getName().replace('/', '.').replace(".class", ""), false, anchor.getClassLoader());
                if (!type.isInterface() && !Modifier.isAbstract(type.getModifiers())) {
                    for (Method method : type.getMethods()) {
                        if (Modifier.isAbstract(method.getModifiers())) {
                            broken.add(type.getName() + " leaves " + method + " unimplemented");
                        }
                    }
                }
            }
        }
        assertThat(broken)
                .as("references of langchain4j-%s that the core on the class path lacks", module)
                .isEmpty();
        assertThat(checked).as("references checked").isGreaterThan(100);
    }

    @ParameterizedTest
    @ValueSource(strings = {"messages()Ljava/util/Set;", "noSuchMethod()V"})
    void a_reference_the_core_lacks_does_not_resolve(String member) {
        String name = member.substring(0, member.indexOf('('));
        String descriptor = member.substring(member.indexOf('('));
        assertThat(resolves(new Ref(10, "dev/langchain4j/model/chat/request/ChatRequest", name, descriptor)))
                .isFalse();
        assertThat(resolves(new Ref(
                        10, "dev/langchain4j/model/chat/request/ChatRequest", "messages", "()Ljava/util/List;")))
                .isTrue();
    }

    /** A reference of a class file's constant pool: a class (tag 7), field (9) or method (10, 11). */
    private record Ref(int tag, String owner, String name, String descriptor) {
        @Override
        public String toString() {
            return tag == 7 ? "class " + owner : owner + "." + name + descriptor;
        }
    }

    private static boolean resolves(Ref ref) {
        Class<?> owner;
        try {
            owner = Class.forName(
                    ref.owner().replace('/', '.'), false, Langchain4jModulesLinkTest.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
        if (ref.tag() == 7) {
            return true;
        }
        if (ref.tag() == 9) {
            return field(owner, ref.name(), ref.descriptor());
        }
        if (ref.name().equals("<init>")) {
            for (Constructor<?> constructor : owner.getDeclaredConstructors()) {
                if (descriptor(constructor.getParameterTypes(), void.class).equals(ref.descriptor())) {
                    return true;
                }
            }
            return false;
        }
        return method(owner, ref.name(), ref.descriptor());
    }

    private static boolean method(Class<?> type, String name, String descriptor) {
        if (type == null) {
            return false;
        }
        for (Method method : type.getDeclaredMethods()) {
            if (method.getName().equals(name)
                    && descriptor(method.getParameterTypes(), method.getReturnType())
                            .equals(descriptor)) {
                return true;
            }
        }
        for (Class<?> parent : type.getInterfaces()) {
            if (method(parent, name, descriptor)) {
                return true;
            }
        }
        return method(type.getSuperclass(), name, descriptor)
                || (type.isInterface() && method(Object.class, name, descriptor));
    }

    private static boolean field(Class<?> type, String name, String descriptor) {
        for (Class<?> t = type; t != null; t = t.getSuperclass()) {
            for (Field field : t.getDeclaredFields()) {
                if (field.getName().equals(name)
                        && field.getType().descriptorString().equals(descriptor)) {
                    return true;
                }
            }
            for (Class<?> parent : t.getInterfaces()) {
                if (field(parent, name, descriptor)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static String descriptor(Class<?>[] parameters, Class<?> returns) {
        StringBuilder descriptor = new StringBuilder("(");
        for (Class<?> parameter : parameters) {
            descriptor.append(parameter.descriptorString());
        }
        return descriptor.append(')').append(returns.descriptorString()).toString();
    }

    /** The class, field and method references of a class file's constant pool (JVMS 4.4). */
    private static List<Ref> refs(DataInputStream in) throws IOException {
        in.readInt(); // magic
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        int count = in.readUnsignedShort();
        int[] tags = new int[count];
        int[] first = new int[count];
        int[] second = new int[count];
        String[] utf8 = new String[count];
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            tags[i] = tag;
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF();
                case 3, 4 -> in.readInt();
                case 5, 6 -> {
                    in.readLong();
                    i++;
                }
                case 7, 8, 16, 19, 20 -> first[i] = in.readUnsignedShort();
                case 9, 10, 11, 12, 17, 18 -> {
                    first[i] = in.readUnsignedShort();
                    second[i] = in.readUnsignedShort();
                }
                case 15 -> {
                    in.readUnsignedByte();
                    first[i] = in.readUnsignedShort();
                }
                default -> throw new IOException("unknown constant pool tag " + tag);
            }
        }
        List<Ref> refs = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            if (tags[i] == 7) {
                String name = utf8[first[i]];
                if (!name.startsWith("[")) {
                    refs.add(new Ref(7, name, "", ""));
                }
            } else if (tags[i] == 9 || tags[i] == 10 || tags[i] == 11) {
                String owner = utf8[first[first[i]]];
                int nameAndType = second[i];
                if (!owner.startsWith("[")) {
                    refs.add(new Ref(tags[i], owner, utf8[first[nameAndType]], utf8[second[nameAndType]]));
                }
            }
        }
        return refs;
    }
}
