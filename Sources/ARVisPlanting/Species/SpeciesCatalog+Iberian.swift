extension SpeciesCatalog {
    /// The heights' source: the species chapters of the JRC atlas.
    private static let atlas =
        "Heights: San-Miguel-Ayanz et al. (eds.), European Atlas of Forest Tree Species, Publications Office of the EU, 2016"

    /// Trees of Portuguese and Iberian reforestation: the 17 of ReforestAR's catalog and five more
    /// native species common in Portuguese restoration plantings.
    static let iberianSpecies: [Species] = [
        Species(
            latinName: "Alnus glutinosa", englishNames: ["black alder", "common alder"], portugueseNames: ["amieiro"],
            spacing: 3, minimumHeight: 10, maximumHeight: 25,
            description:
                "Nitrogen-fixing riverside tree; the backbone of riparian gallery restoration along Portuguese rivers.",
            source:
                "\(atlas), «Alnus glutinosa in Europe» (normally 10–25 m, exceptionally 35–40 m). Spacing: riparian planting at 2–3 m, the usual practice."
        ),
        Species(
            latinName: "Arbutus unedo", englishNames: ["strawberry tree"], portugueseNames: ["medronheiro"],
            spacing: 3, minimumHeight: 4, maximumHeight: 12,
            description:
                "Evergreen shrub or small tree of the maquis; resprouts after fire, fruit used for medronho brandy.",
            source:
                "\(atlas), «Arbutus unedo in Europe». Spacing: 3 × 3 m, the usual density for medronheiro plantations."),
        Species(
            latinName: "Castanea sativa", englishNames: ["sweet chestnut"], portugueseNames: ["castanheiro"],
            spacing: 4, minimumHeight: 20, maximumHeight: 35,
            description:
                "Broadleaf of the northern and central uplands, grown for timber in coppice and for chestnuts in orchards.",
            source:
                "\(atlas), «Castanea sativa in Europe» (may reach 30–35 m). Spacing: 4 × 4 m for timber stands (orchards 8–12 m)."
        ),
        Species(
            latinName: "Celtis australis", englishNames: ["European nettle tree", "Mediterranean hackberry"],
            portugueseNames: ["lódão-bastardo", "agreira"], spacing: 5, minimumHeight: 12, maximumHeight: 25,
            description:
                "Drought-tolerant deciduous tree of valleys and field edges; deep-rooted, used on slopes and in towns.",
            source:
                "\(atlas), «Celtis australis»; spacing 5 m, the usual distance for a wide-crowned broadleaf in mixed plantings."
        ),
        Species(
            latinName: "Corylus avellana", englishNames: ["common hazel"], portugueseNames: ["aveleira"],
            spacing: 3, minimumHeight: 3, maximumHeight: 8,
            description: "Multi-stemmed understorey shrub of moist northern woods and stream banks; hazelnuts.",
            source: "\(atlas), «Corylus avellana in Europe». Spacing: 3 m, as in hedgerow and woodland-edge plantings."),
        Species(
            latinName: "Cupressus sempervirens", englishNames: ["Mediterranean cypress", "Italian cypress"],
            portugueseNames: ["cipreste-comum"],
            spacing: 3, minimumHeight: 20, maximumHeight: 35,
            description: "Columnar evergreen conifer planted for windbreaks and as a fire-resistant barrier.",
            source:
                "\(atlas), «Cupressus sempervirens in Europe» (20–30 m, over 30 m in good conditions). Spacing: 3 m, as in windbreak rows.",
            crown: .columnar
        ),
        Species(
            latinName: "Eucalyptus globulus", englishNames: ["Tasmanian blue gum", "southern blue gum"],
            portugueseNames: ["eucalipto", "eucalipto-comum"],
            spacing: 3, minimumHeight: 30, maximumHeight: 55,
            description:
                "Introduced fast-growing pulpwood tree covering about a quarter of Portugal's forest; new plantations are restricted by law.",
            source: "\(atlas), «Eucalyptus in Europe». Spacing: 3 × 3 m, within Portugal's usual 1 100–1 600 trees/ha.",
            crown: .columnar),
        Species(
            latinName: "Fraxinus angustifolia", englishNames: ["narrow-leaved ash"],
            portugueseNames: ["freixo", "freixo-de-folhas-estreitas"],
            spacing: 4, minimumHeight: 20, maximumHeight: 45,
            description:
                "Deciduous tree of floodplains and valley bottoms, planted in riparian restoration and for timber.",
            source:
                "\(atlas), «Fraxinus angustifolia in Europe» (the chapter: growing 40–45 m; general references give 20–25 m). Spacing: 4 m, as in riparian restoration plantings."
        ),
        Species(
            latinName: "Olea europaea", englishNames: ["olive", "wild olive"],
            portugueseNames: ["oliveira", "zambujeiro"],
            spacing: 5, minimumHeight: 5, maximumHeight: 15,
            description:
                "Evergreen of dry Mediterranean lowlands; the wild form (zambujeiro) is used in restoration of degraded slopes.",
            source: "\(atlas), «Olea europaea in Europe». Spacing: 5 m for restoration; traditional groves 7–10 m."),
        Species(
            latinName: "Pinus pinaster", englishNames: ["maritime pine"], portugueseNames: ["pinheiro-bravo"],
            spacing: 2.5, minimumHeight: 20, maximumHeight: 30,
            description:
                "Native pine of the Atlantic coast and central mountains; timber and resin, Portugal's main conifer.",
            source:
                "\(atlas), «Pinus pinaster in Europe» (20–30 m, exceptionally 40 m). Spacing: Centro PINUS, Manual de boas práticas para o pinheiro-bravo (2020): planting densities near 1 600 trees/ha.",
            crown: .conical
        ),
        Species(
            latinName: "Pinus pinea", englishNames: ["stone pine", "umbrella pine"],
            portugueseNames: ["pinheiro-manso"],
            spacing: 6, minimumHeight: 12, maximumHeight: 30,
            description:
                "Umbrella-crowned pine of sandy southern soils, grown for pine nuts; less fire-sensitive than other pines.",
            source:
                "\(atlas), «Pinus pinea in Europe» (grows up to 25–30 m). Spacing: Diretrizes de silvicultura para a gestão do Pinus pinea para a produção de pinha em Portugal: wide spacing for cone production.",
            crown: .umbrella
        ),
        Species(
            latinName: "Pinus sylvestris", englishNames: ["Scots pine"],
            portugueseNames: ["pinheiro-silvestre", "pinheiro-de-casquinha"],
            spacing: 2, minimumHeight: 20, maximumHeight: 35,
            description:
                "Cold-hardy pine of the northern mountains (Gerês); rare in Portugal, common in the Iberian interior.",
            source:
                "\(atlas), «Pinus sylvestris in Europe». Spacing: 2 × 2 m (2 500 trees/ha), the usual density in Iberian plantations.",
            crown: .conical
        ),
        Species(
            latinName: "Pyrus bourgaeana", englishNames: ["Iberian pear"],
            portugueseNames: ["catapereiro", "pereira-brava"],
            spacing: 4, minimumHeight: 3, maximumHeight: 10,
            description:
                "Small wild pear of the southern montado; fruit for wildlife, planted to enrich cork and holm oak woodland.",
            source:
                "Heights: Flora iberica, vol. 6 (Rosaceae), Pyrus bourgaeana. Spacing: 4 m, as for other small fruit trees in montado enrichment."
        ),
        Species(
            latinName: "Quercus faginea", englishNames: ["Portuguese oak"],
            portugueseNames: ["carvalho-cerquinho", "carvalho-português"],
            spacing: 4, minimumHeight: 10, maximumHeight: 20,
            description: "Semi-deciduous oak of calcareous central Portugal; tolerant of summer drought.",
            source:
                "\(atlas), «Quercus faginea». Spacing: 4 m, as for the other oaks planted in Portuguese restoration."),
        Species(
            latinName: "Quercus ilex", englishNames: ["holm oak", "evergreen oak"], portugueseNames: ["azinheira"],
            spacing: 5, minimumHeight: 8, maximumHeight: 25,
            description:
                "Evergreen oak of the dry interior and the Alentejo montado; acorns feed livestock and wildlife.",
            source:
                "\(atlas), «Quercus ilex in Europe» (grows up to 25 m). Spacing: 5 m, the montado density of 300–400 trees/ha."
        ),
        Species(
            latinName: "Quercus pyrenaica", englishNames: ["Pyrenean oak"], portugueseNames: ["carvalho-negral"],
            spacing: 4, minimumHeight: 15, maximumHeight: 25,
            description:
                "Deciduous oak of the northern and central interior mountains on siliceous soils; resprouts vigorously.",
            source:
                "\(atlas), «Quercus pyrenaica in Europe» (up to 20 m, rarely over 25 m). Spacing: 4 m, as for the other oaks."
        ),
        Species(
            latinName: "Quercus robur", englishNames: ["pedunculate oak", "English oak"],
            portugueseNames: ["carvalho-alvarinho", "carvalho-roble"],
            spacing: 3, minimumHeight: 25, maximumHeight: 40,
            description: "Large deciduous oak of the humid north-west (Minho, Galicia); valued timber.",
            source:
                "\(atlas), «Quercus robur and Quercus petraea in Europe» (30–40 m). Spacing: Ravagni et al., Annals of Silvicultural Research 39(2), 2015: oak plantation at 1 111 trees/ha (3 × 3 m)."
        ),
        Species(
            latinName: "Quercus suber", englishNames: ["cork oak"], portugueseNames: ["sobreiro"],
            spacing: 5, minimumHeight: 10, maximumHeight: 25,
            description:
                "Portugal's national tree: evergreen oak of the montado whose bark is harvested for cork every nine years.",
            source:
                "\(atlas), «Quercus suber in Europe». Spacing: EUFORGEN Quercus suber Network, report of the 3rd and 4th meetings (1997): stands at 300–400 trees/ha, trials at 5 × 5 m."
        ),
        Species(
            latinName: "Salix alba", englishNames: ["white willow"], portugueseNames: ["salgueiro-branco"],
            spacing: 3, minimumHeight: 10, maximumHeight: 25,
            description: "Fast-growing riverside tree, planted from cuttings to hold banks.",
            source: "\(atlas), «Salix alba in Europe». Spacing: 3 m, riparian planting practice."),
        Species(
            latinName: "Salix salviifolia", englishNames: ["sage-leaved willow"],
            portugueseNames: ["borrazeira-branca", "salgueiro-branco-ibérico"],
            spacing: 2, minimumHeight: 2, maximumHeight: 6,
            description: "Iberian endemic shrubby willow of stony riverbeds, used in bank stabilisation.",
            source:
                "Heights: Flora iberica, vol. 3 (Salicaceae), Salix salviifolia. Spacing: 2 m, as for shrub willows in bank stabilisation."
        ),
        Species(
            latinName: "Tamarix gallica", englishNames: ["French tamarisk"],
            portugueseNames: ["tamargueira", "tamariz"],
            spacing: 3, minimumHeight: 2, maximumHeight: 8,
            description: "Salt- and drought-tolerant shrub or small tree of estuaries, dunes and brackish streams.",
            source:
                "Heights: Flora iberica, vol. 3 (Tamaricaceae), Tamarix gallica. Spacing: 3 m, as for coastal shelter shrubs."
        ),
    ]
}
