#include "elf_exports.h"

#include <gelf.h>
#include <string.h>

size_t elf_exports__find(Elf *elf, const char *const *names, uint64_t *values, size_t count)
{
	size_t found = 0;
	Elf_Scn *scn = NULL;

	memset(values, 0, count * sizeof(*values));
	while (found < count && (scn = elf_nextscn(elf, scn)) != NULL) {
		GElf_Shdr shdr;
		if (!gelf_getshdr(scn, &shdr) ||
		    (shdr.sh_type != SHT_DYNSYM && shdr.sh_type != SHT_SYMTAB) || !shdr.sh_entsize)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		size_t symbols = data ? shdr.sh_size / shdr.sh_entsize : 0;
		for (size_t i = 0; i < symbols && found < count; i++) {
			GElf_Sym sym;
			if (!gelf_getsym(data, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
			    !sym.st_value)
				continue;
			const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
			for (size_t n = 0; name && n < count; n++) {
				if (!values[n] && strcmp(name, names[n]) == 0) {
					values[n] = sym.st_value;
					found++;
				}
			}
		}
	}
	return found;
}

uint64_t elf_exports__first_load(Elf *elf)
{
	size_t count = 0;
	uint64_t low = UINT64_MAX;

	if (elf_getphdrnum(elf, &count) != 0)
		return 0;
	for (size_t i = 0; i < count; i++) {
		GElf_Phdr phdr;
		if (gelf_getphdr(elf, (int)i, &phdr) && phdr.p_type == PT_LOAD && phdr.p_vaddr < low)
			low = phdr.p_vaddr;
	}
	return low == UINT64_MAX ? 0 : low & ~(uint64_t)0xfff;
}
